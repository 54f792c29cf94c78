// The panel on PostgreSQL: the facilities page PostgreSQL answers is SQLite's, and while the database is down a login
// and every page answer 503 with Retry-After, naming nothing of the database (the log has it), and recover by themselves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../server/logger.ts';
import { hashPassword } from '../server/domain/passwords.ts';
import { parseImport } from '../server/domain/import.ts';
import { accountAudit } from '../server/store/audit.ts';
import { tokenDigest } from '../server/domain/sessions.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { OPERATOR, PASSWORD, panelClient, panelOver } from './helpers/panel.ts';
import { manyFacilities, mixedFacility } from './helpers/panel-data.ts';
import type { ListingFilter } from '../shared/panel-listings.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';
import { until } from './helpers/wait.ts';
import { multipart } from './helpers/panel-accounts.ts';
import { demoJson, tempDir } from './helpers/fixture.ts';

let pg: PgServer;
let url: string;
let store: Store;

beforeAll(async () => {
  pg = await startPostgres();
  url = await pg.newDatabase();
  store = await openStore(url);
  await store.applyImport(parseImport(JSON.stringify(manyFacilities(70, 3)), 'many.json'));
  await store.addOperator(OPERATOR, await hashPassword(PASSWORD));
});
afterAll(async () => {
  await store?.close();
  await pg?.close();
});

describe('the facilities page', () => {
  it('is the same page, total and search on PostgreSQL as on SQLite', async () => {
    const { dir, cleanup } = tempDir();
    const sqlite = await openStore(`${dir}/listings.db`);
    try {
      await sqlite.applyImport(parseImport(JSON.stringify(manyFacilities(70, 3)), 'many.json'));
      const withoutTimes = (p: Awaited<ReturnType<Store['facilityPage']>>) => ({
        ...p,
        rows: p.rows.map(({ imported_at: _, ...row }) => row),
      });
      for (const query of [
        { search: '', offset: 0, limit: 50 },
        { search: '', offset: 50, limit: 50 },
        { search: 'FACILITY 006', offset: 0, limit: 50 },
        { search: '%', offset: 0, limit: 50 },
      ]) {
        const [a, b] = [await store.facilityPage(query), await sqlite.facilityPage(query)];
        expect(withoutTimes(a)).toEqual(withoutTimes(b));
      }
      expect((await store.facilityPage({ search: '', offset: 50, limit: 50 })).total).toBe(70);
    } finally {
      await sqlite.close();
      cleanup();
    }
  });
});

describe('PostgreSQL down', () => {
  it('answers a login and the pages 503 with Retry-After and no address, and logs the detail', async () => {
    const logged: string[] = [];
    const handle = panelOver(store, { logger: createLogger({ write: (line) => logged.push(line) }).logger });
    const { logIn, session } = panelClient(() => handle);
    const s = await session();
    await pg.stop();
    try {
      const { port } = new URL(url);
      for (const answer of [await logIn(), await s.as('GET', '/'), await s.as('GET', '/facilities/fac-0001')]) {
        expect(answer.status).toBe(503);
        expect(answer.headers['retry-after']).toBe('5');
        expect(String(answer.body)).not.toMatch(new RegExp(`127\\.0\\.0\\.1|localhost|${port}|PostgreSQL`, 'i'));
      }
      expect(logged.join('')).toContain(`:${port}`);
    } finally {
      await pg.start();
    }
    await until('a login once PostgreSQL is back', async () => (await logIn()).status === 303);
    expect((await s.as('GET', '/')).status).toBe(200);
  });
});

describe('snapshots', () => {
  it('shows a facility withdrawn from the target as withdrawn, as of its withdrawal, as SQLite does', async () => {
    const { generateSigningKey, loadSigningKey } = await import('../server/snapshots/format/keygen.ts');
    const { folderTarget } = await import('../server/snapshots/targets/folder.ts');
    const { withdrawFacility } = await import('../server/snapshots/publish/withdraw.ts');
    const { publishNow, snapshotStates } = await import('../server/panel/snapshots.ts');
    const { dir, cleanup } = tempDir();
    try {
      const key = await loadSigningKey((await generateSigningKey(`${dir}/secrets`)).private_key);
      const snapshots = { target: folderTarget(`${dir}/public`), key, ttlSeconds: 3600 };
      await publishNow(store, snapshots, 'http://x', 'fac-0002', OPERATOR);
      const audit = { actor: OPERATOR, to: store };
      const options = { target: snapshots.target, key, facilityId: 'fac-0002', ttlSeconds: 3600, audit };
      await withdrawFacility(store.snapshotLedger(), options);
      await withdrawFacility(store.snapshotLedger(), options); // signed again: still withdrawn as of the first
      const withdrawals = await store.listAudit({ facilityId: 'fac-0002', action: 'snapshot.withdraw' });
      expect(withdrawals).toHaveLength(2);
      const states = await snapshotStates(store, snapshots, ['fac-0001', 'fac-0002']);
      expect(states?.get('fac-0001')?.withdrawnAt).toBeUndefined();
      expect(states?.get('fac-0002')?.withdrawnAt).toBe(withdrawals[1]!.at);
    } finally {
      cleanup();
    }
  });
});

describe('import', () => {
  it('applies an uploaded file in its own process, over a connection of its own with the password it needs', async () => {
    const handle = panelOver(store);
    const { request, session } = panelClient(() => handle);
    const s = await session();
    const file = multipart(s.csrf, 'demo.json', JSON.stringify(demoJson()));
    const applied = await request('POST', '/import', {
      headers: { cookie: s.cookie, 'content-type': file.type },
      body: file.body,
    });
    expect(applied.status, String(applied.body)).toBe(200);
    expect((await store.facilityData('wro-1'))!.listings.length).toBeGreaterThan(0);
    expect((await store.listAudit())[0]).toMatchObject({ action: 'import', actor: OPERATOR });
  });
});

describe('the audit log', () => {
  it("finds an operator's rows by their email in any case, as SQLite does", async () => {
    const { dir, cleanup } = tempDir();
    const sqlite = await openStore(`${dir}/listings.db`);
    try {
      for (const s of [store, sqlite]) {
        await s.appendAudit([accountAudit('login', 'case@example.com', 'case@example.com')]);
        const page = await s.auditPage({ actor: 'Case@EXAMPLE.com' });
        expect(page.rows.map((r) => r.actor)).toEqual(['case@example.com']);
      }
    } finally {
      await sqlite.close();
      cleanup();
    }
  });
});

describe('the Listings tab', () => {
  it("reads a page of a large facility's listings as SQLite does, never more than a page", async () => {
    const { dir, cleanup } = tempDir();
    const sqlite = await openStore(`${dir}/listings.db`);
    const file = parseImport(JSON.stringify(mixedFacility(300)), 'mixed.json');
    try {
      await store.applyImport(file);
      await sqlite.applyImport(file);
      const filters: ListingFilter[] = [
        {},
        { sort: 'code' },
        { sort: '-price' },
        { sort: 'area', min_area: 10, max_area: 40 },
        { state: 'inactive', sort: 'price' },
      ];
      for (const filter of filters)
        for (const offset of [0, 50, 250, 400]) {
          const query = { filter, limit: 50, offset };
          const [a, b] = [await store.panelListingPage('mix-1', query), await sqlite.panelListingPage('mix-1', query)];
          expect(a!.listings.length).toBeLessThanOrEqual(50);
          const seen = (p: typeof a) => ({ ...p!, listings: p!.listings.map((l) => [l.code, l.active]) });
          expect({ filter, offset, page: seen(a) }).toEqual({ filter, offset, page: seen(b) });
        }
      const handle = panelOver(store);
      const s = await panelClient(() => handle).session();
      const tab = String((await s.as('GET', '/facilities/mix-1?sort=-price&page=2')).body);
      expect(tab).toContain('300 of 300 listings');
      expect([...tab.matchAll(/<th scope="row">/g)]).toHaveLength(50);
    } finally {
      await sqlite.close();
      cleanup();
    }
  });
});

describe('what the panel shows once', () => {
  it('is kept in PostgreSQL for its session, read once, for 10 minutes, at most 8 a session, gone with the session', async () => {
    const handle = panelOver(store);
    const s = await panelClient(() => handle).session();
    const digest = tokenDigest(s.cookie.slice(s.cookie.indexOf('=') + 1));
    const t0 = new Date('2026-03-02T10:00:00Z');
    await store.keepShownOnce(digest, 'a', 'one', t0);
    expect(await store.takeShownOnce('other', 'a', t0)).toBeUndefined();
    expect(await store.takeShownOnce(digest, 'a', t0)).toBe('one');
    expect(await store.takeShownOnce(digest, 'a', t0)).toBeUndefined();
    await store.keepShownOnce(digest, 'late', 'x', t0);
    expect(await store.takeShownOnce(digest, 'late', new Date(t0.getTime() + 10 * 60_000))).toBeUndefined();
    for (let i = 0; i < 12; i++) await store.keepShownOnce(digest, `n${i}`, `v${i}`, new Date(t0.getTime() + i));
    const left = [];
    for (let i = 0; i < 12; i++) left.push(await store.takeShownOnce(digest, `n${i}`, t0));
    expect(left).toEqual([...Array(4).fill(undefined), 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', 'v10', 'v11']);
    await store.keepShownOnce(digest, 'gone', 'y', t0);
    await store.endSession(digest);
    expect(await store.takeShownOnce(digest, 'gone', t0)).toBeUndefined();
  });
});
