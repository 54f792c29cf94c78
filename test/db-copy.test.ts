// `listings db copy` moves the panel's side too: operators log in on the PostgreSQL copy with the same password, login
// limits carry over, the audit log arrives in order with its ids, the webhook clock keeps its place, sessions stay
// behind; a non-empty target is refused.
import Database from 'better-sqlite3';
import pgLib from 'pg';
import { inject } from '../server/http/inject.ts';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../server/domain/passwords.ts';
import { createPanelHandler } from '../server/panel/handler.ts';
import { LoginLimiter } from '../server/panel/login-limits.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { runCli } from '../cli/program.ts';
import { bufferIo, cliInProcess, demoDb, demoImport } from './helpers/fixture.ts';
import { usePostgres } from './helpers/postgres.ts';

const ORIGIN = 'http://127.0.0.1:8788';
const PASSWORD = 'correct horse battery staple';

const postgres = usePostgres();

/** A panel on `store`; logs in and answers the status and the session cookie. */
function panelOn(store: Store, limiter = new LoginLimiter()) {
  const handle = createPanelHandler({
    store,
    origin: { origin: ORIGIN, secure: false },
    publicUrl: 'http://127.0.0.1:8787',
    keyPrefix: 'svc',
    limiter,
  });
  const logIn = async (password: string, address = '10.0.0.1') => {
    const r = await inject(handle, {
      method: 'POST',
      url: '/login',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(new URLSearchParams({ email: 'ops@example.com', password }).toString()),
      remoteAddress: address,
    });
    return { status: r.status, cookie: r.headers['set-cookie']?.split(';')[0] };
  };
  const home = async (cookie: string) =>
    (
      await inject(handle, {
        method: 'GET',
        url: '/',
        headers: { cookie },
        body: Buffer.alloc(0),
        remoteAddress: '10.0.0.1',
      })
    ).status;
  return { logIn, home };
}

describe('listings db copy with operators, login limits and the audit log', () => {
  it('lets an operator log in on the copy with the same password, keeps the limits and the audit order', async () => {
    const { file, db } = demoDb(mkdirSync(join(postgres.dir(), 'moved'), { recursive: true })!);
    db.close();
    const sqlite = await openStore(file);
    let cookie: string;
    try {
      await sqlite.applyImport(demoImport(), 'ops@example.com');
      await sqlite.addOperator('ops@example.com', await hashPassword(PASSWORD));
      const { info } = await sqlite.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'site' });
      await sqlite.revokeKey(info.id, 'ops@example.com');
      const panel = panelOn(sqlite);
      ({ cookie } = (await panel.logIn(PASSWORD)) as { cookie: string });
      expect(await panel.home(cookie)).toBe(200);
      for (let i = 0; i < 2; i++) expect((await panel.logIn('wrong password!', '10.0.0.7')).status).toBe(401);
    } finally {
      await sqlite.close();
    }
    // The webhook clock's place: promotions that start or end before the first run on PostgreSQL are still sent.
    const raw = new Database(file);
    raw.prepare('INSERT INTO webhook_clock (id, checked_until) VALUES (1, ?)').run(1_790_000_000_000);
    raw.close();
    const before = await openStore(file);
    const audit = await before.listAudit();
    const operators = await before.listOperators();
    await before.close();

    const url = await postgres.server().newDatabase();
    const copied = await cliInProcess(file, ['db', 'copy', '--from', file, '--to', url, '--json']);
    expect(copied.code, copied.stderr).toBe(0);
    // Audited: the import, the operator's addition, the key's creation and revocation, the login. Two failures, each
    // counted for the account, for the account from its address, and for the address.
    expect(JSON.parse(copied.stdout)).toMatchObject({
      operators: 1,
      login_failures: 6,
      audit_log: 5,
      api_keys: 1,
      webhook_clock: 1,
    });
    const client = new pgLib.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query('SELECT checked_until::text AS at FROM webhook_clock');
      expect(rows).toEqual([{ at: '1790000000000' }]);
    } finally {
      await client.end();
    }

    const pg = await openStore(url);
    try {
      expect(await pg.listOperators()).toEqual(operators);
      expect(await pg.listAudit()).toEqual(audit);
      const panel = panelOn(pg, new LoginLimiter({ perAccount: 3, perAddress: 20, windowMs: 60_000 }));
      expect(await panel.home(cookie)).toBe(303); // sessions stay behind
      // The two failures came along: a third locks the account, right password or not.
      expect((await panel.logIn('wrong password!')).status).toBe(401);
      expect((await panel.logIn(PASSWORD)).status).toBe(429);
      const fresh = await panelOn(pg).logIn(PASSWORD);
      expect(fresh.status).toBe(303);
      expect(await panel.home(fresh.cookie!)).toBe(200);

      // New audit rows follow the copied ones: the fresh login's, then the key's.
      const { info } = await pg.createKey({ facilityId: 'ber-1', prefix: 'svc' }, 'ops@example.com');
      const [newest, login] = await pg.listAudit({ limit: 2 });
      expect(login).toMatchObject({ action: 'login', id: audit[0]!.id + 1 });
      expect(newest).toMatchObject({ action: 'key.create', key_id: info.id, id: audit[0]!.id + 2 });
    } finally {
      await pg.close();
    }
  });

  it('takes the URL from LISTINGS_PG, out of the command line; without either, a usage error', async () => {
    const { file, db } = demoDb(mkdirSync(join(postgres.dir(), 'from-env'), { recursive: true })!);
    db.close();
    const missing = bufferIo({ LISTINGS_DB: file });
    expect(await runCli(['db', 'copy', '--from', file], missing)).toBe(2);
    expect(missing.stderr()).toContain('--to (or LISTINGS_PG)');

    const url = await postgres.server().newDatabase();
    const io = bufferIo({ LISTINGS_DB: file, LISTINGS_PG: url });
    expect(await runCli(['db', 'copy', '--from', file, '--json'], io), io.stderr()).toBe(0);
    expect(JSON.parse(io.stdout())).toMatchObject({ facilities: 4 });
    const pg = await openStore(url);
    try {
      expect((await pg.listFacilities()).length).toBe(4);
    } finally {
      await pg.close();
    }
  });

  it('refuses a database that already holds operators or audit rows, and changes nothing in it', async () => {
    const { file, db } = demoDb(mkdirSync(join(postgres.dir(), 'refused'), { recursive: true })!);
    db.close();
    const url = await postgres.server().newDatabase();
    const target = await openStore(url);
    try {
      await target.addOperator('someone@example.com', await hashPassword(PASSWORD));
      const refused = await cliInProcess(file, ['db', 'copy', '--from', file, '--to', url]);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('copy only into an empty database');
      expect(await target.listFacilities()).toEqual([]);
      expect((await target.listOperators()).map((o) => o.email)).toEqual(['someone@example.com']);
    } finally {
      await target.close();
    }
  });
});
