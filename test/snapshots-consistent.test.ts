// Consistent snapshots (contract, "Signed snapshots"): the pointer is checked against v<version>/listings.json.sig of the
// version it names, so a read between the publisher's two pointer writes verifies; older folders use the .sig beside it.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListingsError } from '../server/errors.ts';
import { bytesOf, contentOf, serialiseSignature, signatureOf } from '../server/snapshots/format/format.ts';
import { jwkOf, signingKeyOf } from '../server/snapshots/format/keygen.ts';
import { loadSnapshotFiles } from '../server/snapshots/format/load.ts';
import { readFacility } from '../server/store/snapshot-versions.ts';
import { cliAsync, demoDb, tempDir } from './helpers/fixture.ts';

const DAY = 86_400_000;
const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);

let dir: string;
let cleanup: () => void;
let listings: number;
let site: StaticSite;

/** Version `version` of wro-1 as the publisher writes it: the real format, signed with the real functions. */
function published(content: string, version: number): { json: Buffer; sig: Buffer } {
  const generatedAt = new Date(Date.now() - DAY + version * 60_000); // each version its own time: no two alike
  const json = bytesOf(content, {
    version,
    generatedAt,
    expiresAt: new Date(generatedAt.getTime() + 7 * DAY),
    kid: key.kid,
  });
  return { json, sig: serialiseSignature(signatureOf(json, key)) };
}

/** One flipped digit of the first price: valid JSON that only the signature can tell from the original. */
function flipped(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes);
  const at = copy.indexOf('"gross":') + 8;
  copy[at] = copy[at] === 0x31 ? 0x32 : 0x31;
  return copy;
}

/** Writes `files` (path inside the folder -> bytes) as the facility folder `name`; returns its path. */
function folder(name: string, files: Record<string, Buffer>): string {
  const root = join(dir, 'site', name);
  mkdirSync(root, { recursive: true });
  for (const [path, bytes] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), bytes);
  }
  return root;
}

interface StaticSite {
  url: string;
  /** The paths asked for, in order, with the status each got. */
  requests: string[];
  /** Paths answered 503 instead of their file. */
  failing: Set<string>;
  close: () => Promise<void>;
}

/** A static host for `root` over node:http: files as they are, 404 for anything missing. */
async function serveStatic(root: string): Promise<StaticSite> {
  const requests: string[] = [];
  const failing = new Set<string>();
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const answer = (status: number, body: Buffer | string) => {
      requests.push(`${status} ${path}`);
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    };
    if (failing.has(path)) return answer(503, '{}');
    readFile(join(root, normalize(path)))
      .then((bytes) => answer(200, bytes))
      .catch(() => answer(404, '{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failing,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  const { db } = demoDb(dir);
  const content = contentOf(readFacility(db, 'wro-1')!, 'https://listings.example', new Date());
  db.close();
  listings = content.listings;
  const v1 = published(content.content, 1);
  const v2 = published(content.content, 2);
  const versions = {
    'v1/listings.json': v1.json,
    'v1/listings.json.sig': v1.sig,
    'v2/listings.json': v2.json,
    'v2/listings.json.sig': v2.sig,
  };
  folder('published', { ...versions, 'listings.json': v2.json, 'listings.json.sig': v2.sig });
  // Read between the two pointer writes: listings.json is version 2 already, its .sig still version 1's.
  folder('mid-publish', { ...versions, 'listings.json': v2.json, 'listings.json.sig': v1.sig });
  // Exported by an older release: no v<N>/ folders.
  folder('old-layout', { 'listings.json': v2.json, 'listings.json.sig': v2.sig });
  folder('tampered', { ...versions, 'listings.json': flipped(v2.json), 'listings.json.sig': v2.sig });
  // Version 2's bytes claiming to be version 1, to be checked against version 1's genuine signature.
  const renumbered = Buffer.from(v2.json.toString('utf8').replace('"version":2,', '"version":1,'));
  folder('renumbered', { ...versions, 'listings.json': renumbered, 'listings.json.sig': v2.sig });
  folder('unversioned', {
    'listings.json': Buffer.from('{"version":"2"}\n'),
    'v2/listings.json.sig': v2.sig,
    'listings.json.sig': v1.sig,
  });
  folder('no-signature', { 'listings.json': v2.json, 'v1/listings.json.sig': v1.sig });
  folder('empty', {});
  writeFileSync(join(dir, 'site', 'keys.json'), `${JSON.stringify({ keys: [jwkOf(key.publicKey)] })}\n`);
  site = await serveStatic(join(dir, 'site'));
});
afterAll(async () => {
  await site.close();
  cleanup();
});

/** A facility folder (or a file in it) as a local path and as a URL on the static host. */
const local = (path: string) => join(dir, 'site', path);
const remote = (path: string) => `${site.url}/${path}`;

describe('loadSnapshotFiles: the signature of the version listings.json names', () => {
  it.each([
    ['published', 'published/v2/listings.json.sig'],
    ['mid-publish', 'mid-publish/v2/listings.json.sig'],
    ['old-layout', 'old-layout/listings.json.sig'],
    ['published/v1/listings.json', 'published/v1/listings.json.sig'],
    ['unversioned', 'unversioned/listings.json.sig'],
  ])('%s: reads the signature from %s, on disk and over HTTP', async (target, signature) => {
    const onDisk = await loadSnapshotFiles(local(target));
    expect(onDisk.signatureLocation).toBe(local(signature));
    expect(onDisk.signature).toBe((await readFile(local(signature))).toString('utf8'));
    const overHttp = await loadSnapshotFiles(remote(target));
    expect(overHttp.signatureLocation).toBe(remote(signature));
    expect(overHttp.signature).toBe(onDisk.signature);
    expect(overHttp.listings.equals(onDisk.listings)).toBe(true);
  });

  it('asks for the pointer, then the version it names, and the .sig beside it only after a 404', async () => {
    site.requests.length = 0;
    await loadSnapshotFiles(remote('mid-publish/'));
    await loadSnapshotFiles(remote('old-layout/listings.json'));
    expect(site.requests).toEqual([
      '200 /mid-publish/listings.json',
      '200 /mid-publish/v2/listings.json.sig',
      '200 /old-layout/listings.json',
      '404 /old-layout/v2/listings.json.sig',
      '200 /old-layout/listings.json.sig',
    ]);
  });

  it('keeps a query string on the URL of listings.json, not on the name of the .sig beside it', async () => {
    const files = await loadSnapshotFiles(remote('old-layout/listings.json?cache=1'));
    expect(files.signatureLocation).toBe(remote('old-layout/listings.json.sig?cache=1'));
  });

  it('does not fall back when the version signature fails with anything but 404', async () => {
    site.failing.add('/published/v2/listings.json.sig');
    try {
      const error = await loadSnapshotFiles(remote('published')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ListingsError);
      expect(error).toMatchObject({ code: 'unreadable' });
      expect(site.requests.at(-1)).toBe('503 /published/v2/listings.json.sig');
    } finally {
      site.failing.clear();
    }
  });

  it.each(['empty', 'no-signature'])('%s: unreadable, on disk and over HTTP', async (name) => {
    for (const target of [local(name), remote(name)]) {
      await expect(loadSnapshotFiles(target)).rejects.toMatchObject({ name: 'ListingsError', code: 'unreadable' });
    }
  });
});

interface Verified {
  ok: boolean;
  location: string;
  reason?: string;
  checked?: { version: number; kid: string; listings: number; facility: { id: string } };
}

/** `listings snapshot verify TARGET --keys KEYS --json` with the real binary: its exit code and its JSON answer. */
async function verify(target: string, keys: string): Promise<{ status: number; result: Verified; stderr: string }> {
  const r = await cliAsync(['snapshot', 'verify', target, '--keys', keys, '--json']);
  return { status: r.status, result: JSON.parse(r.stdout) as Verified, stderr: r.stderr };
}

describe('listings snapshot verify (the real binary) on consistent snapshots', () => {
  const both = (name: string): [string, string][] => [
    [local(name), local('keys.json')],
    [remote(name), remote('keys.json')],
  ];

  it.each(['published', 'mid-publish', 'old-layout'])(
    '%s: exit 0 and version 2, from a folder and over HTTP',
    async (name) => {
      const runs = await Promise.all(both(name).map(([target, keys]) => verify(target, keys)));
      for (const [i, { status, result, stderr }] of runs.entries()) {
        expect(stderr).toBe('');
        expect(status).toBe(0);
        expect(result).toMatchObject({
          ok: true,
          location: i === 0 ? join(local(name), 'listings.json') : remote(`${name}/listings.json`),
          checked: { version: 2, kid: key.kid, listings, facility: { id: 'wro-1' } },
        });
      }
    },
  );

  it.each([
    ['tampered', 'signature_invalid'],
    ['renumbered', 'signature_invalid'],
    ['no-signature', 'unreadable'],
    ['empty', 'unreadable'],
  ])('%s: exit 1 with reason %s, from a folder and over HTTP', async (name, reason) => {
    const runs = await Promise.all(both(name).map(([target, keys]) => verify(target, keys)));
    for (const { status, result, stderr } of runs) {
      expect(status).toBe(1);
      expect(result).toMatchObject({ ok: false, reason });
      expect(stderr).toContain(reason);
    }
  });
});
