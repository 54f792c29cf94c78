// The API and other processes: revocations and imports by the CLI, last-use recording; the server's shutdown and logs.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listingIdOf } from '../server/domain/facility.ts';
import type { Db } from '../server/store/db.ts';
import { revokeKey } from '../server/store/keys.ts';
import { runCli } from '../cli/program.ts';
import { bufferIo, cli, demoDb, demoJson, issueKey, startTestServer, tempDir, writeJson } from './helpers/fixture.ts';
import { call, json } from './helpers/http.ts';
import { handlerOver } from './helpers/inject.ts';
import type { Handler } from '../server/http/handler.ts';
import { until } from './helpers/wait.ts';

const LIST = '/external/listings';
const M07 = `${LIST}/${listingIdOf('wro-1', 'M-07')}`;

let dir: string;
let cleanup: () => void;
let db: Db;
let file: string;
let app: Awaited<ReturnType<typeof startTestServer>> | undefined;
let handler: Handler | undefined;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  ({ db, file } = demoDb(dir));
});
afterEach(async () => {
  await app?.close();
  app = undefined;
  handler?.close();
  handler = undefined;
  if (db.open) db.close();
  cleanup();
});

const env = () => ({ LISTINGS_DB: file });
/** `listings keys list --json`, run in-process: what an operator sees. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function keysList(): Promise<any[]> {
  const io = bufferIo(env());
  expect(await runCli(['keys', 'list', '--json'], io)).toBe(0);
  return JSON.parse(io.stdout());
}

describe('changes made by another process', () => {
  it('a key revoked with the CLI is refused on the very next request', async () => {
    const { key, id } = issueKey(db, 'wro-1');
    const other = issueKey(db, 'wro-1');
    handler = handlerOver(file);
    expect((await call(handler, LIST, { key })).status).toBe(200);
    expect((await call(handler, M07, { key })).status).toBe(200);
    const r = cli(['keys', 'revoke', id], { env: env() });
    expect(r.status).toBe(0);
    const refused = await call(handler, M07, { key });
    expect(refused.status).toBe(401);
    expect(json(refused).code).toBe('revoked_api_key');
    expect(json(await call(handler, LIST, { key })).code).toBe('revoked_api_key');
    expect((await call(handler, LIST, { key: other.key })).status).toBe(200);
  });

  it('after an import with the CLI the next answer has the new price and a new ETag', async () => {
    const { key } = issueKey(db, 'wro-1');
    handler = handlerOver(file);
    const before = await call(handler, M07, { key });
    const listBefore = await call(handler, LIST, { key });
    expect(before.status).toBe(200);

    const data = demoJson();
    const m07 = data.facilities[0].listings.find((l: { code: string }) => l.code === 'M-07');
    m07.price_gross += 1000;
    const r = cli(['import', writeJson(dir, 'new.json', data)], { env: env() });
    expect(r.status).toBe(0);

    const after = await call(handler, M07, { key, headers: { 'if-none-match': before.headers.etag! } });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(json(after).price.gross).not.toBe(json(before).price.gross);
    expect(json(after).price.gross).toBeGreaterThan(json(before).price.gross);
    const listAfter = await call(handler, LIST, { key });
    expect(listAfter.headers.etag).not.toBe(listBefore.headers.etag);
    expect(json(listAfter).listings.find((l: { code: string }) => l.code === 'M-07').price).toEqual(json(after).price);
  });
});

describe('last use', () => {
  it('is written at a graceful shutdown and shown by keys list', async () => {
    const used = issueKey(db, 'wro-1');
    const unused = issueKey(db, 'wro-1');
    db.close();
    const started = new Date();
    app = await startTestServer(file);
    expect((await call(app.url, LIST, { key: used.key })).status).toBe(200);
    expect((await call(app.url, LIST, { key: unused.key.slice(0, -1) + '!' })).status).toBe(401);
    expect((await keysList()).find((k) => k.id === used.id).last_used_at).toBeNull(); // coalesced: no write per request
    await app.close();
    app = undefined;
    const rows = await keysList();
    const at = rows.find((k) => k.id === used.id).last_used_at;
    expect(at).not.toBeNull();
    expect(Date.parse(at)).toBeGreaterThanOrEqual(started.getTime());
    expect(rows.find((k) => k.id === unused.id).last_used_at).toBeNull();
  });

  it('is written by the interval while the server runs', async () => {
    const used = issueKey(db, 'ber-1');
    handler = handlerOver(file, { lastUseIntervalMs: 50 });
    expect((await call(handler, LIST, { key: used.key })).status).toBe(200);
    const lastUsed = () => db.prepare('SELECT last_used_at FROM api_keys WHERE id = ?').pluck().get(used.id);
    await until('the interval to write last use', () => lastUsed() !== null);
    expect((await keysList()).find((k) => k.id === used.id).last_used_at).toBe(lastUsed());
  });
});

describe('request logs', () => {
  it('one JSON line per request with method, path, status, duration and key id; never the key', async () => {
    const { key, id } = issueKey(db, 'wro-1');
    const revoked = issueKey(db, 'wro-1');
    app = await startTestServer(file);
    revokeKey(db, revoked.id);
    await call(app.url, `${LIST}?sort=price`, { key });
    await call(app.url, M07, { key, method: 'HEAD' });
    await call(app.url, LIST, { key: revoked.key });
    await call(app.url, `${LIST}?api_key=${revoked.key}`); // a key misplaced in the query stays out of the log too
    await call(app.url, '/nope');
    await app.close(); // flushes the buffered log
    const lines = app.logs.join('').trimEnd().split('\n');
    app = undefined;
    const entries = lines.map((l) => JSON.parse(l));
    expect(entries.map((e) => [e.method, e.path, e.status, e.key_id])).toEqual([
      ['GET', LIST, 200, id],
      ['HEAD', M07, 200, id],
      ['GET', LIST, 401, null],
      ['GET', LIST, 401, null],
      ['GET', '/nope', 404, null],
    ]);
    for (const e of entries) {
      expect(e.duration_ms).toEqual(expect.any(Number));
      expect(e.duration_ms).toBeGreaterThanOrEqual(0);
      expect(e.request_id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const text = lines.join('\n');
    for (const k of [key, revoked.key]) expect(text).not.toContain(k.slice('svc_live_'.length));
  });
});
