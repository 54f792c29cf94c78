// `listings snapshot publish` to a real S3-compatible server (s3rver) with the real SDK: layout, headers, verification,
// only-what-changed, versions across machines, and one clear line for each kind of bad input.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { openDb } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { cliAsync, demoDb, demoJson, freePort, tempDir } from './helpers/fixture.ts';
import { startFaultProxy } from './helpers/fault-proxy.ts';
import { bucketState, fetchObject, snapshotKeyFile } from './helpers/published.ts';
import { startS3, type S3Server } from './helpers/s3-server.ts';

let s3: S3Server;
let dir: string;
let cleanup: () => void;
let dbFile: string;
let keyFile: string;
let kid: string;

const PREFIX = 'cdn';
const publishArgs = (db = dbFile, to = `s3://${s3.bucket}/${PREFIX}`, endpoint = s3.endpoint) => [
  'snapshot',
  'publish',
  '--db',
  db,
  '--to',
  to,
  '--endpoint',
  endpoint,
  '--path-style',
  '--signing-key',
  keyFile,
  '--public-url',
  'https://listings.example.com',
];
const publish = (args = publishArgs(), env: NodeJS.ProcessEnv = {}) => cliAsync(args, { env: { ...s3.env, ...env } });
const FACILITIES = ['wro-1', 'ber-1', 'zrh-1', 'krk-1'];

function changePrice(file: string, facility: string, code: string, gross: number) {
  const data = demoJson();
  const f = data.facilities.find((x) => x.id === facility);
  f.listings.find((l: { code: string }) => l.code === code).price_gross = gross;
  const db = openDb(file);
  applyImport(db, parseImport(JSON.stringify({ facilities: [f] }), 'test'));
  db.close();
}

beforeAll(async () => {
  s3 = await startS3();
  ({ dir, cleanup } = tempDir());
  const { db, file } = demoDb(dir);
  db.close();
  dbFile = file;
  ({ keyFile, kid } = await snapshotKeyFile(join(dir, 'secrets')));
});
afterAll(async () => {
  await s3.stop();
  cleanup();
});

describe('snapshot publish to S3', () => {
  it('writes the contract layout with its headers, readable over plain HTTP and verifiable by the CLI and OpenSSL', async () => {
    const r = await publish();
    expect(r.status).toBe(0);
    // Only our lines: one per facility on a pipe, and not the SDK's notice about Node 20.
    expect(
      r.stderr
        .trim()
        .split('\n')
        .map((l) => l.replace(/:.*/, ''))
        .sort(),
    ).toEqual([...FACILITIES].sort());
    expect(r.stdout).toMatch(/^published 4 of 4 facilities \(0 unchanged and skipped\), 22 objects/);
    const expected = [`${PREFIX}/keys.json`, `${PREFIX}/keys/${kid}.pem`];
    for (const n of ['index.json', 'index.json.sig', 'changes/latest.json', 'changes/latest.json.sig'])
      expected.push(`${PREFIX}/${n}`);
    for (const f of FACILITIES)
      expected.push(
        ...['listings.json', 'listings.json.sig', 'v1/listings.json', 'v1/listings.json.sig'].map(
          (n) => `${PREFIX}/${f}/${n}`,
        ),
      );
    expect(await s3.keys(`${PREFIX}/`)).toEqual(expected.sort()); // and no lock object left behind

    const pointer = await fetchObject(s3, `${PREFIX}/wro-1/listings.json`);
    const version = await fetchObject(s3, `${PREFIX}/wro-1/v1/listings.json`);
    expect(pointer.headers.get('content-type')).toBe('application/json');
    expect(pointer.headers.get('cache-control')).toBe(
      'public, max-age=60, stale-while-revalidate=300, stale-if-error=86400',
    );
    expect(version.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetchObject(s3, `${PREFIX}/wro-1/v1/listings.json.sig`)).headers.get('cache-control')).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await fetchObject(s3, `${PREFIX}/keys.json`)).headers.get('content-type')).toBe('application/jwk-set+json');
    expect((await fetchObject(s3, `${PREFIX}/keys/${kid}.pem`)).headers.get('content-type')).toBe(
      'application/x-pem-file',
    );
    expect(pointer.bytes.equals(version.bytes)).toBe(true);

    const verified = await cliAsync([
      'snapshot',
      'verify',
      s3.objectUrl(`${PREFIX}/wro-1/listings.json`),
      '--keys',
      s3.objectUrl(`${PREFIX}/keys.json`),
      '--json',
    ]);
    expect(verified.status).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({
      ok: true,
      checked: { version: 1, kid, facility: { id: 'wro-1' } },
    });

    // Stock OpenSSL, with nothing but what the bucket serves: the PEM, the bytes, and the version's signature.
    const sig = JSON.parse((await fetchObject(s3, `${PREFIX}/wro-1/v1/listings.json.sig`)).bytes.toString()) as {
      sig: string;
    };
    const files = { pem: join(dir, 'key.pem'), data: join(dir, 'wro-1.json'), sig: join(dir, 'wro-1.sig.bin') };
    writeFileSync(files.pem, (await fetchObject(s3, `${PREFIX}/keys/${kid}.pem`)).bytes);
    writeFileSync(files.data, pointer.bytes);
    writeFileSync(files.sig, Buffer.from(sig.sig, 'base64url'));
    const openssl = spawnSync(
      'openssl',
      ['pkeyutl', '-verify', '-pubin', '-inkey', files.pem, '-rawin', '-in', files.data, '-sigfile', files.sig],
      { encoding: 'utf8' },
    );
    expect(openssl.stdout).toContain('Signature Verified Successfully');
    expect(openssl.status).toBe(0);
  });

  it('uploads nothing when nothing changed, and says so', async () => {
    const before = await bucketState(s3, PREFIX, FACILITIES);
    const r = await publish();
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^nothing to publish: all 4 facilities are unchanged/);
    expect(r.stdout).toContain('uploaded 0 objects');
    expect(await bucketState(s3, PREFIX, FACILITIES)).toEqual(before);
  });

  it('publishes one changed facility as its four objects, the index and the feed head, and nothing else (the lock aside)', async () => {
    const writes: string[] = [];
    const proxy = await startFaultProxy(s3.endpoint, {
      match: (method, path) => (
        method === 'PUT' || method === 'DELETE' ? writes.push(`${method} ${path.split('?')[0]}`) : 0,
        false
      ),
    });
    try {
      changePrice(dbFile, 'zrh-1', 'A-1', 17000);
      const r = await publish(publishArgs(dbFile, undefined, proxy.endpoint));
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^published 1 of 4 facilities \(3 unchanged and skipped\), 8 objects/);
      const base = `/${s3.bucket}/${PREFIX}/`;
      const data = writes.filter((w) => !w.includes('/.publish-lock/'));
      expect(data.sort()).toEqual(
        ['listings.json', 'listings.json.sig', 'v2/listings.json', 'v2/listings.json.sig']
          .map((n) => `PUT ${base}zrh-1/${n}`)
          .concat(
            ['index.json', 'index.json.sig', 'changes/latest.json', 'changes/latest.json.sig'].map(
              (n) => `PUT ${base}${n}`,
            ),
          )
          .sort(),
      );
      // The lock: one object created, then removed.
      expect(writes.filter((w) => w.includes('/.publish-lock/')).map((w) => w.split(' ')[0])).toEqual([
        'PUT',
        'DELETE',
      ]);
    } finally {
      await proxy.stop();
    }
    const state = await bucketState(s3, PREFIX, ['zrh-1']);
    expect(state['zrh-1']).toMatchObject({ version: 2, verifies: true });
  });

  it('keeps versions growing when another machine, with its own database, publishes to the same prefix', async () => {
    const other = tempDir();
    try {
      const { db, file } = demoDb(other.dir);
      db.close();
      changePrice(file, 'zrh-1', 'A-1', 17000); // the same data as the bucket holds: adopted, not uploaded
      const same = await publish(publishArgs(file));
      expect(same.stdout).toMatch(/^nothing to publish/);
      changePrice(file, 'wro-1', 'M-07', 45000);
      const r = await publish(publishArgs(file));
      expect(r.status).toBe(0);
      const state = await bucketState(s3, PREFIX, ['wro-1', 'zrh-1']);
      expect(state['wro-1']).toMatchObject({ version: 2, verifies: true }); // this database's counter was at 0
      expect(state['zrh-1']!.version).toBe(2);
    } finally {
      other.cleanup();
    }
  });
});

describe('snapshot publish refuses bad input with one line and leaves nothing visible', () => {
  /** Exit 1 for a failure (the store refuses), 2 for a usage error (a --to or an option that cannot be right). */
  const oneLine = (r: { status: number; stderr: string }, pattern: RegExp, status = 1) => {
    expect(r.status).toBe(status);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(pattern);
  };

  it('a malformed --to', async () => {
    oneLine(
      await publish([...publishArgs(dbFile, 's3://Not_A_Bucket/x')]),
      /--to s3:\/\/Not_A_Bucket\/x: expected s3:\/\/BUCKET\/PREFIX or a folder path/,
      2,
    );
    oneLine(await publish([...publishArgs(dbFile, 'ftp://host/x')]), /only s3:\/\/ URLs and folder paths/, 2);
    oneLine(await publish([...publishArgs(dbFile, 's3://listings/../etc')]), /prefix segment "\.\."/, 2);
  });

  it('a bucket that does not exist, denied credentials, an unreachable endpoint', async () => {
    const before = await s3.keys();
    oneLine(
      await publish(publishArgs(dbFile, 's3://no-such-bucket/x')),
      /bucket "no-such-bucket" does not exist at http:\/\/127\.0\.0\.1:\d+/,
    );
    // s3rver checks the access key id, not SigV4 signatures: an unknown key id is its denial.
    oneLine(
      await publish(publishArgs(dbFile, `s3://${s3.bucket}/denied`), { AWS_ACCESS_KEY_ID: 'AKIAWRONGKEY' }),
      /access denied \(InvalidAccessKeyId\) for (GET|PUT) s3:\/\/listings\/denied\//,
    );
    const closed = `http://127.0.0.1:${await freePort()}`;
    oneLine(
      await publish(publishArgs(dbFile, `s3://${s3.bucket}/away`, closed)),
      /cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
    );
    expect(await s3.keys()).toEqual(before);
  });

  it('S3 options on a folder target', async () => {
    oneLine(
      await publish([
        'snapshot',
        'publish',
        '--db',
        dbFile,
        '--to',
        join(dir, 'folder'),
        '--endpoint',
        s3.endpoint,
        '--signing-key',
        keyFile,
      ]),
      /--endpoint applies to s3:\/\/ targets only/,
      2,
    );
  });
});
