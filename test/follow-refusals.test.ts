// Every bad input the follower refuses: one line naming the file, and the mirror and its cursor left byte for byte as they were.
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import type { Db } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { FeedPage, PAGE_SIZE, signedFile, type FeedItem } from '../server/snapshots/format/feed-format.ts';
import { followOnce, type FollowOptions } from '../server/snapshots/follow/follow.ts';
import { signingKeyOf } from '../server/snapshots/format/keygen.ts';
import { publishSnapshots } from '../server/snapshots/publish/publish.ts';
import { folderTarget } from '../server/snapshots/targets/folder.ts';
import { demoDb, demoJson, tempDir } from './helpers/fixture.ts';

const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
let dir: string;
let cleanup: () => void;
let db: Db;

const out = () => join(dir, 'out');
const mirror = () => join(dir, 'mirror');
const follow = (extra: Partial<FollowOptions> = {}) =>
  followOnce({ base: out(), keys: join(out(), 'keys.json'), dir: mirror(), ...extra });
const publish = () =>
  publishSnapshots(db, { target: folderTarget(out()), key, publicUrl: 'https://l.example', ttlSeconds: 86_400 });

function changePrice(facility: string, gross: number) {
  const f = demoJson().facilities.find((x) => x.id === facility);
  f.listings[0].price_gross = gross;
  applyImport(db, parseImport(JSON.stringify({ facilities: [f] }), 'test'));
}

/** Every file of the mirror, its cursor included, with its bytes. */
function mirrorBytes(): Record<string, string> {
  const walk = (d: string): [string, string][] =>
    readdirSync(d).flatMap((n) => {
      const p = join(d, n);
      return statSync(p).isDirectory() ? walk(p) : [[relative(mirror(), p), readFileSync(p).toString('base64')]];
    });
  return Object.fromEntries(walk(mirror()));
}

const head = (): FeedPage => FeedPage.parse(JSON.parse(readFileSync(join(out(), 'changes', 'latest.json'), 'utf8')));
function writeSigned(rel: string, doc: object) {
  const f = signedFile(doc, key);
  writeFileSync(join(out(), `${rel}.sig`), f.sig);
  writeFileSync(join(out(), rel), f.bytes);
}

/** Follows, expects a refusal whose line starts with `file`, and that nothing in the mirror moved. */
async function refused(file: string, why: RegExp, extra: Partial<FollowOptions> = {}) {
  const before = mirrorBytes();
  const err = await follow(extra).then(
    () => undefined,
    (e: unknown) => e as Error & { code?: string },
  );
  expect(err, 'the follow should have been refused').toBeDefined();
  expect(err!.code).toBe('follow_refused');
  expect(err!.message.startsWith(`${file}: `), err!.message).toBe(true);
  expect(err!.message).toMatch(why);
  expect(err!.message).not.toContain('\n');
  expect(mirrorBytes()).toEqual(before);
}

beforeEach(async () => {
  ({ dir, cleanup } = tempDir());
  ({ db } = demoDb(dir));
  await publish();
  expect(await follow()).toMatchObject({ mode: 'index', seq: 4 });
  changePrice('wro-1', 12345);
  await publish(); // seq 5: wro-1 v2
});
afterEach(() => {
  db.close();
  cleanup();
});

describe('snapshot follow refuses, applying nothing', () => {
  it('a feed page whose signature fails', async () => {
    const path = join(out(), 'changes', 'latest.json');
    writeFileSync(path, readFileSync(path, 'utf8').replace('"state":"updated"', '"state":"withdrawn"'));
    await refused('changes/latest.json', /signature_invalid/);
  });

  it('a seq gap, and a feed going back', async () => {
    const h = head();
    writeSigned('changes/latest.json', { ...h, items: h.items.map((i) => (i.seq === 5 ? { ...i, seq: 6 } : i)) });
    await refused('changes/latest.json', /seq 6 where 5 belongs/);
    writeSigned('changes/latest.json', { ...h, items: h.items.slice(0, 3) });
    await refused('changes/latest.json', /ends at seq 3, before this mirror's cursor 4/);
  });

  it('a next link outside the base URL', async () => {
    // Page 1 full (the real items, then more of wro-1), page 2 the head: the follower at seq 4 walks page 1.
    const h = head();
    const filler: FeedItem[] = Array.from({ length: PAGE_SIZE - h.items.length }, (_, i) => ({
      ...h.items.at(-1)!,
      seq: h.items.length + i + 1,
    }));
    const full = { ...h, items: [...h.items, ...filler], next: 'https://elsewhere.example/changes/2.json' };
    delete (full as { expires_at?: string }).expires_at;
    writeSigned('changes/1.json', full);
    writeSigned('changes/latest.json', { ...h, page: 2, items: [], prev: 'changes/1.json' });
    await refused('changes/1.json', /leads outside file:\/\//);
  });

  it('an index naming a facility whose file is missing', async () => {
    rmSync(join(out(), 'wro-1', 'v2'), { recursive: true });
    await refused('wro-1/v2/listings.json', /not found, and the index names it/);
  });

  it('an index older than the feed it is read with (a stale cache, a read mid-publish); the next run goes on', async () => {
    const fresh = ['index.json', 'index.json.sig'].map((f) => [f, readFileSync(join(out(), f))] as const);
    changePrice('wro-1', 23456);
    await publish(); // seq 6: wro-1 v3; the index of seq 5 is put back, as a cache would serve it
    const current = ['index.json', 'index.json.sig'].map((f) => [f, readFileSync(join(out(), f))] as const);
    for (const [f, bytes] of fresh) writeFileSync(join(out(), f), bytes);
    await refused('index.json', /lists wro-1 at v2, behind the feed's v3 \(seq 6\): the index is older than the feed/);
    for (const [f, bytes] of current) writeFileSync(join(out(), f), bytes);
    expect(await follow()).toMatchObject({ mode: 'feed', seq: 6, fetched: 1 });
    const mirrored = JSON.parse(readFileSync(join(mirror(), 'wro-1', 'listings.json'), 'utf8')) as { version: number };
    expect(mirrored.version).toBe(3);
  });

  it('an unchanged head once it has expired: the copy is stale', async () => {
    expect(await follow()).toMatchObject({ mode: 'feed', seq: 5 });
    const expiresAt = head().expires_at!;
    expect(await follow({ now: new Date(Date.parse(expiresAt) - 1000) })).toMatchObject({ mode: 'unchanged' });
    await refused('changes/latest.json', /expired at .*, unchanged since: the copy is stale/, {
      now: new Date(Date.parse(expiresAt) + 1000),
    });
  });

  it('a truncated file, and one over the size cap', async () => {
    const path = join(out(), 'wro-1', 'v2', 'listings.json');
    const bytes = readFileSync(path);
    writeFileSync(path, bytes.subarray(0, bytes.length - 40));
    await refused('wro-1/v2/listings.json', /signature_invalid/);
    writeFileSync(path, bytes);
    // A cap every other file of the run fits under, and wro-1's does not.
    const cap = statSync(join(out(), 'index.json')).size + 100;
    expect(bytes.length).toBeGreaterThan(cap);
    await refused('wro-1/v2/listings.json', new RegExp(`larger than the ${cap}-byte cap per file`), { maxBytes: cap });
  });

  it('a first run into a folder that was not there leaves no folder behind', async () => {
    const path = join(out(), 'wro-1', 'v2', 'listings.json');
    writeFileSync(path, readFileSync(path).subarray(0, 100));
    const fresh = join(dir, 'new', 'mirror');
    await expect(follow({ dir: fresh })).rejects.toThrow(/signature_invalid/);
    expect(existsSync(join(dir, 'new'))).toBe(false);
  });
});

describe('snapshot follow goes on', () => {
  it('past a withdrawal of a facility the mirror never held: there is nothing to withdraw', async () => {
    const h = head();
    const ghost: FeedItem = { ...h.items.at(-1)!, seq: 6, facility: 'ghost-1', state: 'withdrawn', digest: null };
    writeSigned('changes/latest.json', { ...h, items: [...h.items, ghost] });
    expect(await follow()).toMatchObject({ mode: 'feed', seq: 6, fetched: 1, withdrawn: 0 });
    expect(existsSync(join(mirror(), 'ghost-1'))).toBe(false);
  });
});

describe('snapshot follow over HTTP', () => {
  let server: Server;
  let base: string;
  /** A special answer: its status and headers, part of a body, then the socket cut (or, with hold, left open). */
  let behave: (
    path: string,
  ) => { status: number; headers?: Record<string, string>; body?: Buffer; hold?: boolean } | undefined;

  beforeEach(async () => {
    behave = () => undefined;
    server = createServer((req, res) => {
      const path = decodeURIComponent(new URL(req.url!, 'http://x').pathname.replace(/^\/pub\//, ''));
      const special = behave(path);
      if (special) {
        res.writeHead(special.status, special.headers);
        if (special.body) res.write(special.body);
        if (special.hold) return res.flushHeaders();
        return special.status === 200 ? res.socket?.destroy() : res.end();
      }
      try {
        res.writeHead(200, { 'content-type': 'application/json' }).end(readFileSync(join(out(), path)));
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/pub/`;
    // The mirror made from the folder is a mirror of another base: start one over HTTP.
    rmSync(mirror(), { recursive: true });
    await followOnce({ base, keys: `${base}keys.json`, dir: mirror() });
    changePrice('wro-1', 23456);
    await publish(); // seq 6: wro-1 v3
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const httpFollow = () => ({ base, keys: `${base}keys.json` });

  it('refuses a redirect to another host', async () => {
    behave = (p) =>
      p === 'wro-1/v3/listings.json'
        ? { status: 302, headers: { location: 'http://127.0.0.2:9/pub/wro-1/v3/listings.json' } }
        : undefined;
    await refused('wro-1/v3/listings.json', /redirected to another host \(http:\/\/127\.0\.0\.2:9\)/, httpFollow());
  });

  it('refuses a body cut short of its Content-Length, and a Content-Length over the cap before reading it', async () => {
    const bytes = readFileSync(join(out(), 'wro-1', 'v3', 'listings.json'));
    behave = (p) =>
      p === 'wro-1/v3/listings.json'
        ? { status: 200, headers: { 'content-length': String(bytes.length) }, body: bytes.subarray(0, 100) }
        : undefined;
    await refused('wro-1/v3/listings.json', /truncated/, httpFollow());
    behave = (p) =>
      p === 'wro-1/v3/listings.json'
        ? { status: 200, headers: { 'content-length': String(10 ** 9) }, hold: true }
        : undefined;
    await refused('wro-1/v3/listings.json', /larger than the 4096-byte cap/, { ...httpFollow(), maxBytes: 4096 });
  });

  it('follows over HTTP when nothing is wrong', async () => {
    expect(await followOnce({ ...httpFollow(), dir: mirror() })).toMatchObject({ mode: 'feed', fetched: 1, seq: 6 });
  });
});
