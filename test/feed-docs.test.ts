// docs/aggregators.md's consumer in plain JavaScript runs as printed against a publish whose feed fills a page: WebCrypto
// alone verifies the index, walks the full page by its `next` link to the head, and refuses what it cannot trust. The
// project's follower walks the same feed the same way.
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { applyImport } from '../server/store/facilities.ts';
import { followOnce, type FollowSummary } from '../server/snapshots/follow/follow.ts';
import { jwkOf, signingKeyOf } from '../server/snapshots/format/keygen.ts';
import { publishSnapshots } from '../server/snapshots/publish/publish.ts';
import { folderTarget } from '../server/snapshots/targets/folder.ts';
import { bigImport } from './helpers/data.ts';
import { demoDb, REPO, tempDir } from './helpers/fixture.ts';

const DOC = readFileSync(join(REPO, 'docs', 'aggregators.md'), 'utf8');
/** The block between the consumer markers, without its fence. */
const consumer = /<!-- consumer:start -->\n```js\n([\s\S]*?)```\n<!-- consumer:end -->/.exec(DOC)?.[1] ?? '';

let dir: string;
let cleanup: () => void;
let server: Server;
let base: string;
/** Every path the server was asked for, in order. */
const requested: string[] = [];
/** The project's follower, at seq 4, following the publish that filled page 1 (seq 5-1001). */
let followed: FollowSummary;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  const { db } = demoDb(dir);
  const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
  const publish = () =>
    publishSnapshots(db, {
      target: folderTarget(join(dir, 'out')),
      key,
      publicUrl: 'https://l.example',
      ttlSeconds: 3600,
    });
  await publish(); // seq 1-4
  const follow = () =>
    followOnce({ base: join(dir, 'out'), keys: join(dir, 'out', 'keys.json'), dir: join(dir, 'mirror') });
  await follow();
  applyImport(db, parseImport(JSON.stringify(bigImport('many', 997, 1)), 'test'));
  await publish(); // seq 5-1001: page 1 full, page 2 the head
  db.close();
  followed = await follow();
  server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname);
    requested.push(path.slice(1));
    try {
      res.writeHead(200).end(readFileSync(join(dir, 'out', path)));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  cleanup();
});

/** The snippet with its URLs pointed at the local folder and its cursor set, run by this Node as a module. */
function runConsumer(cursor: number, keys = `${base}keys.json`, clock = '') {
  const script =
    clock +
    consumer
      .replace(/^const BASE = '[^']*'/m, `const BASE = '${base}'`)
      .replace(/^const KEYS = '[^']*'/m, `const KEYS = '${keys}'`)
      .replace(/^const CURSOR = \d+/m, `const CURSOR = ${cursor}`);
  const file = join(dir, 'consumer.mjs');
  writeFileSync(file, script);
  requested.length = 0;
  // Not spawnSync: the files come from a server in this process, which must keep answering.
  return new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
    execFile(process.execPath, [file], { timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** The seq of each feed line the consumer printed (`<seq> <facility> <state> <version>`). */
const seqsOf = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter((l) => /^\d+ \S+ (updated|withdrawn) \d+$/.test(l))
    .map((l) => Number(l.split(' ')[0]));

describe("docs/aggregators.md's consumer", () => {
  it('is plain JavaScript, with no import', () => {
    expect(consumer.trimEnd().split('\n').length).toBeLessThanOrEqual(40);
    expect(consumer).not.toMatch(/\bimport\b|\brequire\(/);
  });

  it('verifies the index with WebCrypto and lists every facility', async () => {
    const r = await runConsumer(1001);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const ids = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[0]);
    expect(ids).toHaveLength(1001);
    expect(ids).toEqual(expect.arrayContaining(['ber-1', 'krk-1', 'wro-1', 'zrh-1', 'many-0', 'many-996']));
  });

  it('walks the full page, which has no expires_at, and goes on to the head where its next names the open page', async () => {
    const r = await runConsumer(0);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(seqsOf(r.stdout)).toEqual(Array.from({ length: 1001 }, (_, i) => i + 1));
    expect(requested).toContain('changes/1.json');
    expect(requested).not.toContain('changes/2.json');

    const near = await runConsumer(999);
    expect(seqsOf(near.stdout)).toEqual([1000, 1001]);
  });

  it('refuses an index changed after it was signed', async () => {
    const path = join(dir, 'out', 'index.json');
    const genuine = readFileSync(path, 'utf8');
    writeFileSync(path, genuine.replace('"listings":6', '"listings":7'));
    try {
      const r = await runConsumer(1001);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain('index.json: bad signature');
    } finally {
      writeFileSync(path, genuine);
    }
  });

  it('refuses an index past its expires_at', async () => {
    const { expires_at } = JSON.parse(readFileSync(join(dir, 'out', 'index.json'), 'utf8')) as { expires_at: string };
    const later = `Date.now = () => ${Date.parse(expires_at) + 1000};\n`;
    const r = await runConsumer(1001, `${base}keys.json`, later);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('index.json: expired');
  });

  it('names a file signed by a key its keys file does not list', async () => {
    const other = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
    writeFileSync(join(dir, 'out', 'other-keys.json'), JSON.stringify({ keys: [jwkOf(other.publicKey)] }));
    const r = await runConsumer(1001, `${base}other-keys.json`);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain('index.json: unknown kid');
  });
});

describe("the project's follower on the same feed", () => {
  it('reads the full page and then the head, never the head page under its number', () => {
    expect(followed).toMatchObject({ mode: 'feed', seq: 1001, fetched: 997 });
    expect(followed.reads).toContain('changes/1.json');
    expect(followed.reads).not.toContain('changes/2.json');
  });
});
