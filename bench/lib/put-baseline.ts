// The publish bench's baseline: COUNT PUTs of SIZE bytes at CONCURRENCY through the publisher's own S3 target, and
// nothing else (no database, no signing, no reads). Usage: ENDPOINT BUCKET COUNT SIZE CONCURRENCY.
import { s3Target } from '../../server/snapshots/targets/s3.ts';

const [endpoint, bucket, count, size, concurrency] = process.argv.slice(2);
const target = await s3Target({ bucket: bucket!, prefix: 'baseline', endpoint, pathStyle: true });
const body = Buffer.alloc(Number(size), 'x');
let next = 0;
const worker = async () => {
  for (let i = next++; i < Number(count); i = next++)
    await target.put(`${i}.json`, body, { contentType: 'application/json', cacheControl: 'no-store' });
};
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
await target.close();
