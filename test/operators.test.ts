// Operator accounts and the audit log, on both stores: scrypt hashes only, sessions ended by passwd and remove, every
// key and import action recorded with its actor, and never a key or a password in clear.
import { inject } from '../server/http/inject.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/program.ts';
import { hashPassword, verifyPassword } from '../server/domain/passwords.ts';
import { newSession, sessionLive, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../server/domain/sessions.ts';
import { CLI_ACTOR } from '../server/store/audit.ts';
import { openStore } from '../server/store/store.ts';
import { createPanelHandler } from '../server/panel/handler.ts';
import { bufferIo, DEMO_DATA, demoImport, tempDir } from './helpers/fixture.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';

const PASSWORD = 'correct horse battery staple';

async function run(db: string, args: string[], stdin = '') {
  const io = bufferIo({ LISTINGS_DB: db }, stdin);
  const code = await runCli(args, io);
  return { code, stdout: io.stdout(), stderr: io.stderr() };
}

describe('passwords and sessions as values', () => {
  it('salts every hash and verifies only the right password', async () => {
    const [a, b] = [await hashPassword(PASSWORD), await hashPassword(PASSWORD)];
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword(PASSWORD, a)).toBe(true);
    expect(await verifyPassword(`${PASSWORD}!`, a)).toBe(false);
    expect(await verifyPassword(PASSWORD, 'plain')).toBe(false);
  });

  it('ends a session when idle or too old, whichever comes first', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    const { row, token } = newSession('op_x', start);
    expect(row.digest).not.toContain(token);
    const at = (ms: number) => new Date(start.getTime() + ms);
    expect(sessionLive(row, at(SESSION_IDLE_MS - 1))).toBe(true);
    expect(sessionLive(row, at(SESSION_IDLE_MS))).toBe(false);
    const busy = { ...row, seen_at: at(SESSION_ABSOLUTE_MS - 1000).toISOString() };
    expect(sessionLive(busy, at(SESSION_ABSOLUTE_MS - 1))).toBe(true);
    expect(sessionLive(busy, at(SESSION_ABSOLUTE_MS))).toBe(false);
  });
});

describe('listings operators and listings audit (SQLite)', () => {
  let dir: string;
  let cleanup: () => void;
  let db: string;
  beforeAll(() => {
    ({ dir, cleanup } = tempDir());
    db = join(dir, 'listings.db');
  });
  afterAll(() => cleanup());

  it('refuses a missing database, as every command but import, db migrate and demo does, creating nothing', async () => {
    const missing = join(dir, 'none', 'listings.db');
    const r = await run(missing, ['operators', 'add', 'ops@example.com'], `${PASSWORD}\n`);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([`error: no database at ${missing}: run listings import first`]);
    expect(existsSync(join(dir, 'none'))).toBe(false);
  });

  it('adds, lists, changes and removes accounts; the password comes from stdin, never an argument', async () => {
    expect((await run(db, ['db', 'migrate'])).code).toBe(0);
    expect((await run(db, ['operators', 'add', 'Ops@Example.com'], `${PASSWORD}\n`)).code).toBe(0);
    expect((await run(db, ['operators', 'add', 'ops@example.com'], `${PASSWORD}\n`)).code).toBe(1);
    expect((await run(db, ['operators', 'add', 'short@example.com'], 'short\n')).code).toBe(1);
    expect((await run(db, ['operators', 'add', 'x@example.com', PASSWORD])).code).toBe(2);
    const listed = await run(db, ['operators', 'list', '--json']);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ email: 'ops@example.com' })]);
    expect(listed.stdout).not.toContain('scrypt');

    const store = await openStore(db);
    try {
      const row = (await store.operator('email', 'ops@example.com'))!;
      expect(await verifyPassword(PASSWORD, row.password_hash)).toBe(true);
      const { row: session } = newSession(row.id);
      await store.createSession(session);
      expect((await run(db, ['operators', 'passwd', 'ops@example.com'], 'another long password\n')).code).toBe(0);
      expect(await store.session(session.digest)).toBeUndefined();
      const changed = (await store.operator('email', 'ops@example.com'))!;
      expect(await verifyPassword('another long password', changed.password_hash)).toBe(true);
      await store.createSession(newSession(row.id).row);
      expect((await run(db, ['operators', 'remove', 'ops@example.com'])).code).toBe(0);
      expect(await store.listOperators()).toEqual([]);
      expect((await run(db, ['operators', 'remove', 'ops@example.com'])).code).toBe(1);
    } finally {
      await store.close();
    }
    // Closed, the store has checkpointed its WAL: the file holds everything written.
    const bytes = readFileSync(db).toString('latin1');
    expect(bytes).not.toContain(PASSWORD);
    expect(bytes).not.toContain('another long password');
  });

  it('records every key and import action with its actor, never the key itself', async () => {
    expect((await run(db, ['import', DEMO_DATA])).code).toBe(0);
    const created = JSON.parse(
      (
        await run(db, [
          'keys',
          'create',
          '--facility',
          'wro-1',
          '--rate',
          '20/s',
          '--allowed-origin',
          'https://partner.example',
          '--json',
        ])
      ).stdout,
    );
    expect((await run(db, ['keys', 'update', created.id, '--label', 'site'])).code).toBe(0);
    expect((await run(db, ['keys', 'revoke', created.id])).code).toBe(0);
    const out = await run(db, ['audit', '--json']);
    const rows = JSON.parse(out.stdout) as {
      action: string;
      actor: string;
      key_id: string | null;
      detail: Record<string, unknown>;
    }[];
    expect(rows.slice(0, 4).map((r) => r.action)).toEqual(['key.revoke', 'key.update', 'key.create', 'import']);
    // a new key's row says what it was given: its limits and origins, as an update's row does
    expect(rows[2]!.detail).toMatchObject({
      rate_per_s: 20,
      burst: null,
      allowed_origins: ['https://partner.example'],
      hint: created.key.slice(-4),
    });
    expect(rows.every((r) => r.actor === CLI_ACTOR && r.actor.startsWith('cli:'))).toBe(true);
    expect(rows[0]!.key_id).toBe(created.id);
    expect(out.stdout).not.toContain(created.key);
    expect((await run(db, ['audit'])).stdout).not.toContain(created.key);
    // another facility's rows: the import that named it too, none of wro-1's key rows
    const other = JSON.parse((await run(db, ['audit', '--facility', 'ber-1', '--json'])).stdout) as typeof rows;
    expect(other.map((r) => r.action)).toEqual(['import']);
  });
});

describe('operators, sessions and audit on PostgreSQL', () => {
  let server: PgServer;
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps the same rows and rules as SQLite', async () => {
    const store = await openStore(await server.newDatabase());
    try {
      const op = await store.addOperator('Ops@Example.com', await hashPassword(PASSWORD));
      expect(op.email).toBe('ops@example.com');
      await expect(store.addOperator('ops@example.com', 'x')).rejects.toMatchObject({ code: 'operator_exists' });
      const { row } = newSession(op.id);
      await store.createSession(row);
      expect(await store.session(row.digest)).toEqual(row);
      await store.touchSession(row.digest, new Date(Date.parse(row.seen_at) + 1000));
      expect((await store.session(row.digest))!.seen_at).not.toBe(row.seen_at);
      await store.endExpiredSessions(new Date(Date.parse(row.seen_at) - 1), new Date(0));
      expect(await store.session(row.digest)).toBeDefined();
      await store.endExpiredSessions(new Date(Date.now() + 60_000), new Date(0));
      expect(await store.session(row.digest)).toBeUndefined();
      await store.createSession(row);
      await store.setOperatorPassword('ops@example.com', await hashPassword('another long password'));
      expect(await store.session(row.digest)).toBeUndefined();

      await store.applyImport(demoImport(), 'ops@example.com');
      const { info } = await store.createKey({ facilityId: 'wro-1', prefix: 'svc' }, 'ops@example.com');
      await store.updateKey(info.id, { label: 'site' }, 'ops@example.com');
      await store.revokeKey(info.id);
      const audit = await store.listAudit();
      expect(audit.map((r) => [r.action, r.actor])).toEqual([
        ['key.revoke', CLI_ACTOR],
        ['key.update', 'ops@example.com'],
        ['key.create', 'ops@example.com'],
        ['import', 'ops@example.com'],
        ['operator.password', CLI_ACTOR],
        ['operator.add', CLI_ACTOR],
      ]);
      expect(await store.listAudit({ facilityId: 'wro-1', limit: 1 })).toHaveLength(1);
      await store.removeOperator('ops@example.com');
      expect(await store.listOperators()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("serves the panel: the facility's listings through the mirror, a key generated and revoked, all audited", async () => {
    const store = await openStore(await server.newDatabase());
    try {
      await store.applyImport(demoImport());
      await store.addOperator('ops@example.com', await hashPassword(PASSWORD));
      const origin = 'http://127.0.0.1:8788';
      const handle = createPanelHandler({
        store,
        origin: { origin, secure: false },
        publicUrl: origin,
        keyPrefix: 'svc',
      });
      const post = (url: string, form: Record<string, string>, cookie = '') =>
        inject(handle, {
          method: 'POST',
          url,
          headers: { origin, cookie, 'content-type': 'application/x-www-form-urlencoded' },
          body: Buffer.from(new URLSearchParams(form).toString()),
          remoteAddress: '10.0.0.1',
        });
      const get = (url: string, cookie: string) =>
        inject(handle, { method: 'GET', url, headers: { cookie }, body: Buffer.alloc(0), remoteAddress: '10.0.0.1' });
      const login = await post('/login', { email: 'ops@example.com', password: PASSWORD });
      const cookie = login.headers['set-cookie']!.split(';')[0]!;
      const listings = String((await get('/facilities/wro-1', cookie)).body);
      for (const l of (await store.facilityData('wro-1'))!.listings) expect(listings).toContain(`>${l.code}</th>`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(listings)![1]!;
      const made = await post('/facilities/wro-1/keys', { csrf, label: 'pg' }, cookie);
      expect(made.status).toBe(303);
      // The new key is kept in PostgreSQL for this session to see once: any node of the panel shows it.
      expect(String((await get(made.headers.location!, cookie)).body)).toMatch(/svc_live_[A-Za-z0-9]{32}/);
      expect((await get(made.headers.location!, cookie)).status).toBe(410);
      const [key] = await store.listKeys('wro-1');
      expect((await post(`/keys/${key!.id}/revoke`, { csrf }, cookie)).status).toBe(303);
      expect((await store.listKeys('wro-1'))[0]!.revoked_at).not.toBeNull();
      expect((await store.listAudit()).slice(0, 2).map((r) => [r.action, r.actor])).toEqual([
        ['key.revoke', 'ops@example.com'],
        ['key.create', 'ops@example.com'],
      ]);
    } finally {
      await store.close();
    }
  });
});
