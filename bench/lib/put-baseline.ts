// The publish bench's baseline: COUNT PUTs of SIZE bytes at CONCURRENCY through the SDK, with the client settings
// the publisher uses and nothing else (no database, no signing, no reads). Usage: ENDPOINT BUCKET COUNT SIZE CONCURRENCY.
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

const [endpoint, bucket, count, size, concurrency] = process.argv.slice(2);
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
const client = new S3Client({
  endpoint,
  region: 'us-east-1',
  forcePathStyle: true,
  maxAttempts: 5,
  requestChecksumCalculation: 'WHEN_REQUIRED',
  responseChecksumValidation: 'WHEN_REQUIRED',
});
const body = Buffer.alloc(Number(size), 'x');
let next = 0;
const worker = async () => {
  while (next < Number(count)) {
    const i = next++;
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: `baseline/${i}.json`,
        Body: body,
        ContentType: 'application/json',
        CacheControl: 'no-store',
      }),
    );
  }
};
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
client.destroy();
