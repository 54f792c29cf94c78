// docs/aggregators.md's consumer in plain JavaScript runs as printed: WebCrypto alone verifies the published index.
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingKeyOf } from '../server/snapshots/format/keygen.ts';
import { publishSnapshots } from '../server/snapshots/publish/publish.ts';
import { folderTarget } from '../server/snapshots/targets/folder.ts';
import { demoDb, REPO, tempDir } from './helpers/fixture.ts';

const DOC = readFileSync(join(REPO, 'docs', 'aggregators.md'), 'utf8');
/** The block between the consumer markers, without its fence. */
const consumer = /<!-- consumer:start -->\n```js\n([\s\S]*?)```\n<!-- consumer:end -->/.exec(DOC)?.[1] ?? '';

let dir: string;
let cleanup: () => void;
let server: Server;
let base: string;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  const { db } = demoDb(dir);
  const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
  await publishSnapshots(db, {
    target: folderTarget(join(dir, 'out')),
    key,
    publicUrl: 'https://l.example',
    ttlSeconds: 3600,
  });
  db.close();
  server = createServer((req, res) => {
    try {
      res
        .writeHead(200)
        .end(readFileSync(join(dir, 'out', decodeURIComponent(new URL(req.url!, 'http://x').pathname))));
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

/** The snippet with its two URLs pointed at the local folder, run by this Node as a module. */
function runConsumer() {
  const script = consumer
    .replace(/^const BASE = '[^']*'/m, `const BASE = '${base}'`)
    .replace(/^const KEYS = '[^']*'/m, `const KEYS = '${base}keys.json'`);
  const file = join(dir, 'consumer.mjs');
  writeFileSync(file, script);
  // Not spawnSync: the files come from a server in this process, which must keep answering.
  return new Promise<{ status: number; stdout: string; stderr: string }>((resolve) =>
    execFile(process.execPath, [file], { timeout: 30_000 }, (err, stdout, stderr) =>
      resolve({ status: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

describe("docs/aggregators.md's consumer", () => {
  it('is 15 lines of plain JavaScript, with no import', () => {
    expect(consumer.trimEnd().split('\n')).toHaveLength(15);
    expect(consumer).not.toMatch(/\bimport\b|\brequire\(/);
  });

  it('verifies the index with WebCrypto and lists every facility', async () => {
    const r = await runConsumer();
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const ids = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[0]);
    expect(ids).toEqual(['ber-1', 'krk-1', 'wro-1', 'zrh-1']);
  });

  it('refuses an index changed after it was signed', async () => {
    const path = join(dir, 'out', 'index.json');
    const genuine = readFileSync(path, 'utf8');
    writeFileSync(path, genuine.replace('"listings":6', '"listings":7'));
    try {
      const r = await runConsumer();
      expect(r.status).not.toBe(0);
      expect(r.stderr).toContain('index.json: bad signature');
    } finally {
      writeFileSync(path, genuine);
    }
  });
});
