// The facility view's rough edges in process: the API tab's keys as one table (active first), burst shown and editable
// as the CLI allows, "Last used" from the batches the API writes, the new key page under the facility's name; the
// Listings tab's inactive listings and the terms partners see, the facility's address and hours; the Snapshots tab's
// exports and publishes without a publish target; the operator's brand (PANEL_TITLE) on every page, the login too.
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { exportSnapshots } from '../server/snapshots/publish/export.ts';
import { generateSigningKey, loadSigningKey } from '../server/snapshots/format/keygen.ts';
import type { Store } from '../server/store/store.ts';
import { tempDir } from './helpers/fixture.ts';
import { panelClient, panelOver, panelStore, type PanelHandle } from './helpers/panel.ts';

let store: Store;
let cleanup: () => Promise<void>;
let client: ReturnType<typeof panelClient>;
let as: Awaited<ReturnType<ReturnType<typeof panelClient>['session']>>['as'];
beforeAll(async () => {
  ({ store, cleanup } = await panelStore());
  const handle: PanelHandle = panelOver(store);
  client = panelClient(() => handle);
  ({ as } = await client.session());
});
afterAll(() => cleanup());
const page = async (url: string) => String((await as('GET', url)).body);
/** The table rows of a page, each as its cells' text. */
const rowsOf = (body: string) =>
  [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((m) =>
    [...m[1]!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map((c) =>
      c[1]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );

describe('the API tab', () => {
  it('lists keys in one table, active first then revoked, with burst and last use as the API writes it', async () => {
    const old = await store.createKey({ facilityId: 'krk-1', prefix: 'svc', label: 'old', rate_per_s: 20 });
    await store.revokeKey(old.info.id, 'test');
    const used = await store.createKey({ facilityId: 'krk-1', prefix: 'svc', label: 'used', burst: 70 });
    const idle = await store.createKey({ facilityId: 'krk-1', prefix: 'svc', label: 'idle', rate_per_s: 2 });
    await store.recordLastUse(new Map([[used.info.id, new Date(Date.now() - 5_000)]]));
    const rows = rowsOf(await page('/facilities/krk-1/api')).filter((r) => /…/.test(r[0] ?? ''));
    expect(rows.map((r) => r[0]!.split(' ')[0])).toEqual(['used', 'idle', 'old']);
    const byName = Object.fromEntries(rows.map((r) => [r[0]!.split(' ')[0], r]));
    expect(byName.used![3]).toBe('within the last minute');
    expect(byName.idle![3]).toBe('none recorded (uses are written every 30 s)');
    expect(byName.used![5]).toBe('server default, burst 70');
    expect(byName.idle![5]).toBe('2/s, burst 10 (from rate)');
    expect(byName.old![1]).toMatch(/^revoked /);
    expect(idle.info.hint).toHaveLength(4);
  });

  it('edits a burst as the CLI does (alone, or with a rate), and refuses a bad one naming the field', async () => {
    const { info } = await store.createKey({ facilityId: 'krk-1', prefix: 'svc', label: 'edit me' });
    const form = { label: 'edit me', origins: '', rate: '', burst: '40' };
    expect((await as('POST', `/keys/${info.id}`, form)).status).toBe(303);
    expect((await store.listKeys('krk-1')).find((k) => k.id === info.id)).toMatchObject({
      rate_per_s: null,
      burst: 40,
    });
    const bad = await as('POST', `/keys/${info.id}`, { ...form, burst: '0' });
    expect(bad.status).toBe(400);
    expect(String(bad.body)).toContain('burst: expected a whole number from 1 to 1000000');
    expect((await store.listKeys('krk-1')).find((k) => k.id === info.id)!.burst).toBe(40);
  });

  it("keeps the facility's name as the new key page's heading", async () => {
    const made = await as('POST', '/facilities/krk-1/keys', { label: 'new', origins: '', rate: '', burst: '' });
    expect(made.status).toBe(303);
    const res = await as('GET', made.headers.location!);
    expect(res.status).toBe(200);
    const name = (await store.facilityHead('krk-1'))!.name;
    expect(/<h1>([^<]*)<\/h1>/.exec(String(res.body))![1]).toBe(name);
  });
});

describe('the Listings tab', () => {
  it('shows inactive listings marked, and filters by state with a plain GET', async () => {
    const all = await page('/facilities/wro-1');
    expect(all).toMatch(/<tr class="inactive">\s*<th scope="row">OLD-1 <span class="badge off">inactive<\/span>/);
    const inactive = await page('/facilities/wro-1?state=inactive');
    expect([...inactive.matchAll(/<th scope="row">([^<\s]+)/g)].map((m) => m[1])).toEqual(['OLD-1']);
    expect(inactive).toContain('<option value="inactive" selected>');
    const active = await page('/facilities/wro-1?state=active');
    expect([...active.matchAll(/<th scope="row">([^<\s]+)/g)].map((m) => m[1])).not.toContain('OLD-1');
  });

  it("shows the promotions, features and move-in of the API's Summary, and the facility's address and hours", async () => {
    const body = await page('/facilities/wro-1');
    const row = rowsOf(body).find((r) => r[0] === 'M-07')!;
    expect(row[6]).toMatch(/^Pierwszy miesiąc za 1 zł: PLN\s1\.00 .*Move-in PLN\s[\d,]+\.\d\d$/);
    expect(body).toMatch(/<dt>Address<\/dt><dd>[^<]*Wrocław[^<]*, PL<\/dd>/);
    expect(body).toContain('<caption>Office hours</caption>');
    expect(body).toMatch(/<th scope="row" class="day">Monday<\/th><td>\d\d:\d\d-\d\d:\d\d/);
    const zurich = await page('/facilities/zrh-1');
    expect(zurich).toContain('<dt>Address</dt><dd>not given</dd>');
  });
});

describe('the Snapshots tab without a publish target', () => {
  it('shows what the CLI exported, and how to publish from here', async () => {
    const { dir, cleanup: remove } = tempDir();
    try {
      const key = await loadSigningKey((await generateSigningKey(join(dir, 'secrets'))).private_key);
      await exportSnapshots(store.snapshotLedger(), {
        outDir: join(dir, 'public'),
        key,
        publicUrl: 'http://127.0.0.1:8787',
        facilityIds: ['ber-1'],
        ttlSeconds: 3600,
        audit: { actor: 'cli:test', to: store },
      });
      const body = await page('/facilities/ber-1/snapshots');
      expect(body).toContain('--publish-to');
      const row = rowsOf(body).find((r) => r[4] === 'cli:test');
      expect(row?.[2]).toBe('1');
      expect(row?.[3]).toContain('public');
      expect(await page('/facilities/zrh-1/snapshots')).toContain('Nothing exported or published');
    } finally {
      remove();
    }
  });
});

describe("the operator's brand", () => {
  afterEach(() => {
    delete process.env.PANEL_TITLE;
  });

  it('names the product and PANEL_TITLE on the login page and every page, and ignores a title it cannot show', async () => {
    process.env.PANEL_TITLE = 'SafeBox Storage';
    const login = String((await client.request('GET', '/login')).body);
    expect(login).toContain('storage-listings <span class="operator">SafeBox Storage</span>');
    expect(login).toMatch(/<title>[^<]*SafeBox Storage - storage-listings panel<\/title>/);
    expect(await page('/')).toContain('<span class="operator">SafeBox Storage</span>');
    expect(login).toContain('<link rel="icon" href="/assets/favicon.svg"');
    process.env.PANEL_TITLE = 'x'.repeat(81);
    expect(String((await client.request('GET', '/login')).body)).not.toContain('class="operator"');
    const icon = await client.request('GET', '/assets/favicon.svg');
    expect([icon.status, icon.headers['content-type']]).toEqual([200, 'image/svg+xml']);
  });
});
