// What an idle round of `snapshot publish --watch` asks the store (counted at the S3 test server): index.json and the
// feed's head, which the watch wrote or read itself under the lock it holds throughout, are not read again.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDb, type Db } from '../server/store/db.ts';
import { signingKeyOf } from '../server/snapshots/format/keygen.ts';
import { watchAndPublish } from '../server/snapshots/publish/watch.ts';
import { s3Target } from '../server/snapshots/targets/s3.ts';
import { startFaultProxy, type FaultProxy } from './helpers/fault-proxy.ts';
import { demoDb, tempDir } from './helpers/fixture.ts';
import { CREDENTIALS, startS3, type S3Server } from './helpers/s3-server.ts';
import { until } from './helpers/wait.ts';

const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);

let s3: S3Server;
let proxy: FaultProxy;
let dir: string;
let cleanup: () => void;
let db: Db;
let dbFile: string;
/** Every GET the store was asked for, as `GET /bucket/key`. */
const gets: string[] = [];

beforeAll(async () => {
  s3 = await startS3();
  proxy = await startFaultProxy(s3.endpoint);
  proxy.setPlan({
    match: (method, path) => {
      if (method === 'GET') gets.push(path.split('?')[0]!);
      return false;
    },
  });
  ({ dir, cleanup } = tempDir());
  ({ db, file: dbFile } = demoDb(dir));
});
afterAll(async () => {
  db.close();
  await proxy.stop();
  await s3.stop();
  cleanup();
});

/** A commit by another connection that changes no facility: the watch wakes for it and finds nothing to publish. */
function idleCommit(n: number) {
  const other = openDb(dbFile);
  other.exec(`CREATE TABLE IF NOT EXISTS idle_marks (n INTEGER); INSERT INTO idle_marks VALUES (${n})`);
  other.close();
}

describe('an idle --watch round on S3', { timeout: 60_000 }, () => {
  it('reads keys.json and the PEM, not index.json or the feed it wrote itself', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', CREDENTIALS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', CREDENTIALS.secretAccessKey);
    const target = await s3Target({ bucket: s3.bucket, prefix: 'idle', endpoint: proxy.endpoint, pathStyle: true });
    const controller = new AbortController();
    let published = 0;
    const watching = watchAndPublish(db, {
      target,
      key,
      publicUrl: 'https://l.example',
      ttlSeconds: 86_400,
      signal: controller.signal,
      pollMs: 20,
      onPublish: () => published++,
      onRetry: (err) => {
        throw err;
      },
      onWaiting: () => {},
    });
    const keysReads = () => gets.filter((g) => g.endsWith('/idle/keys.json')).length;
    try {
      await until('the first publish', () => published === 1);
      // Each round starts by reading keys.json; rounds run one after another, so the GETs between the second and the
      // third read of keys.json are the whole of the idle round the first commit woke.
      idleCommit(1);
      await until('an idle round', () => keysReads() >= 2);
      const from = gets.lastIndexOf(`/${s3.bucket}/idle/keys.json`);
      idleCommit(2);
      await until('another idle round', () => keysReads() >= 3);
      const round = gets.slice(from, gets.lastIndexOf(`/${s3.bucket}/idle/keys.json`));
      expect(round.map((g) => g.replace(`/${s3.bucket}/idle/`, ''))).toEqual(['keys.json', `keys/${key.kid}.pem`]);
      expect(published).toBe(1);
    } finally {
      controller.abort();
      await watching;
      await target.close();
      vi.unstubAllEnvs();
    }
  });
});
