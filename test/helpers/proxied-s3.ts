// Publishing to S3 through a fault proxy: the store, the proxy in front of it and a folder with a database and a signing
// key, for the tests of a file or describe; and the `snapshot publish` command line that goes through the proxy.
import { afterAll, beforeAll } from 'vitest';
import { startFaultProxy, type FaultProxy } from './fault-proxy.ts';
import { publishFixture } from './published.ts';
import { startS3, type S3Server } from './s3-server.ts';

export interface ProxiedS3 {
  s3: S3Server;
  proxy: FaultProxy;
  dir: string;
  dbFile: string;
  keyFile: string;
}

/**
 * Before the tests of the file or describe it is called in: S3, a fault proxy in front of it (no faults until a test
 * plans some) and publishFixture()'s folder, its database filled by `fill` instead of the demo data when given; all
 * handed to `use`, stopped and removed after the last test.
 */
export function proxiedS3ForAll(use: (t: ProxiedS3) => void, fill?: (dbFile: string) => void): void {
  let made: (ProxiedS3 & { cleanup: () => void }) | undefined;
  beforeAll(async () => {
    const s3 = await startS3();
    const proxy = await startFaultProxy(s3.endpoint);
    made = { s3, proxy, ...(await publishFixture(fill)) };
    use(made);
  });
  afterAll(async () => {
    await made?.proxy.stop();
    await made?.s3.stop();
    made?.cleanup();
  });
}

/** `listings snapshot publish` of the database to `prefix` in the bucket, through the proxy, signed with the key. */
export function publishThroughProxy(
  t: Pick<ProxiedS3, 's3' | 'proxy' | 'dbFile' | 'keyFile'>,
  prefix: string,
  endpoint = t.proxy.endpoint,
): string[] {
  return [
    'snapshot',
    'publish',
    '--db',
    t.dbFile,
    '--to',
    `s3://${t.s3.bucket}/${prefix}`,
    '--endpoint',
    endpoint,
    '--path-style',
    '--signing-key',
    t.keyFile,
    '--public-url',
    'https://listings.example.com',
  ];
}
