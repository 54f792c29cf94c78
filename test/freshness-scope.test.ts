// What a commit by another connection drops from a handler's caches: the views of facilities whose revision moved, the
// click refs when a key changed, and nothing for a commit that touches neither (another node's last use, a delivery).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Handler } from '../server/http/handler.ts';
import { applyImport } from '../server/store/facilities.ts';
import { revokeKey, updateKey } from '../server/store/keys.ts';
import { referralRows } from '../server/store/referrals.ts';
import type { Db } from '../server/store/db.ts';
import { demoDb, demoImport, issueKey, tempDir } from './helpers/fixture.ts';
import { handlerOver, inject } from './helpers/inject.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
let dir: ReturnType<typeof tempDir>;
let db: Db;
let handler: Handler;
let key: string;
let keyId: string;

beforeAll(() => {
  dir = tempDir();
  let file: string;
  ({ db, file } = demoDb(dir.dir));
  ({ key, id: keyId } = issueKey(db, 'wro-1'));
  updateKey(db, keyId, { ref: 'odra' });
  const open = { rate: 1e9, burst: 1e9 };
  handler = handlerOver(file, { pageLimit: open, pageRenderLimit: open });
});
afterAll(() => {
  handler.close();
  db.close();
  dir.cleanup();
});

const list = () => inject(handler, { method: 'GET', url: '/external/listings', headers: { 'x-api-key': key } });
const click = () =>
  inject(handler, {
    method: 'GET',
    url: '/go/wro-1/M-07?ref=odra',
    headers: { 'user-agent': BROWSER },
    remoteAddress: '203.0.113.7',
  });
const clicks = () => {
  handler.clicks.flush();
  return referralRows(db, { from: '2000-01-01', to: '2999-12-31' }).reduce((n, r) => n + r.clicks, 0);
};

it("keeps the views through a commit that moves no facility's revision, and builds again after one that does", async () => {
  expect((await list()).status).toBe(200);
  const built = handler.views.builds;
  db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(new Date().toISOString(), keyId);
  expect((await list()).status).toBe(200);
  expect(handler.views.builds).toBe(built);
  const data = demoImport();
  data.facilities = data.facilities.filter((f) => f.id === 'wro-1');
  const listing = data.facilities[0]!.listings[0]!;
  listing.title = 'Renamed by another connection';
  applyImport(db, data);
  const after = await list();
  expect(handler.views.builds).toBe(built + 1);
  expect(after.body.toString()).toContain('Renamed by another connection');
});

it('counts a ref until another connection revokes its key, from the next click on', async () => {
  const before = clicks();
  expect((await click()).status).toBe(302);
  expect(clicks()).toBe(before + 1);
  db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(new Date().toISOString(), keyId);
  expect((await click()).status).toBe(302);
  expect(clicks()).toBe(before + 2);
  revokeKey(db, keyId);
  expect((await click()).status).toBe(302);
  expect(clicks()).toBe(before + 2);
});
