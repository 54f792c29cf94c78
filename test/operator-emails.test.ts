// Operators' emails in one normal form (NFKC, then lower case) on SQLite and PostgreSQL: forms a person cannot tell
// apart are one account to add, to log in as and to count failures under; an address with an invisible or control
// character is refused by `operators add` and at the login; and the migration moves stored emails to their normal form,
// leaving those that would collide as they were, each found by its own form.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/program.ts';
import { hashPassword } from '../server/domain/passwords.ts';
import { LoginLimiter } from '../server/panel/login-limits.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { bufferIo, tempDir } from './helpers/fixture.ts';
import { postgresAt, sqliteAt } from './helpers/old-schema.ts';
import { panelClient, panelOver, PASSWORD } from './helpers/panel.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';

const PRECOMPOSED = 'zo\u00e9@example.com';
const DECOMPOSED = 'zoe\u0301@example.com';
const FULL_WIDTH = '\uff4fwner@example.com';
const OWNER = 'owner@example.com';
const HIDDEN = 'owner@example.com\u200b';

let pg: PgServer;
let dir: string;
let cleanup: () => void;
beforeAll(async () => {
  pg = await startPostgres();
  ({ dir, cleanup } = tempDir());
});
afterAll(async () => {
  await pg?.close();
  cleanup?.();
});

let files = 0;
const stores: Record<string, () => Promise<Store>> = {
  SQLite: () => openStore(join(dir, `emails-${files++}.db`)),
  PostgreSQL: async () => openStore(await pg.newDatabase()),
};

describe.each(Object.keys(stores))('operator emails on %s', (name) => {
  it('are one account for forms a person cannot tell apart, and refused with a hidden character', async () => {
    const store = await stores[name]!();
    try {
      const hash = await hashPassword(PASSWORD);
      await store.addOperator(OWNER, hash, 'owner');
      await store.addOperator(PRECOMPOSED, hash);
      await expect(store.addOperator(DECOMPOSED, hash)).rejects.toMatchObject({ code: 'operator_exists' });
      await expect(store.addOperator(FULL_WIDTH, hash)).rejects.toMatchObject({ code: 'operator_exists' });
      await expect(store.addOperator(HIDDEN, hash)).rejects.toMatchObject({ code: 'invalid_email' });
      expect((await store.listOperators()).map((o) => o.email)).toEqual([OWNER, PRECOMPOSED]);
      expect((await store.operator('email', DECOMPOSED))?.email).toBe(PRECOMPOSED);
      expect((await store.operator('email', '\uff2fWNER@example.com'))?.email).toBe(OWNER);
      expect((await store.setOperatorRole(DECOMPOSED, 'manager')).email).toBe(PRECOMPOSED);
    } finally {
      await store.close();
    }
  });

  it('log in and count failures under the normal form, however typed; a hidden character is refused', async () => {
    const store = await stores[name]!();
    try {
      await store.addOperator(OWNER, await hashPassword(PASSWORD), 'owner');
      const limiter = new LoginLimiter({ perAccount: 3, perAddress: 20, windowMs: 60_000 });
      const { logIn } = panelClient(() => panelOver(store, { limiter }));
      expect((await logIn('\uff2f\uff37\uff2e\uff25\uff32@example.com')).status).toBe(303);
      expect((await logIn(HIDDEN)).status).toBe(400);
      // Three failures typed three ways, from three addresses, lock the one account.
      for (const [typed, address] of [
        [FULL_WIDTH, '10.0.0.2'],
        ['OWNER@example.com', '10.0.0.3'],
        [OWNER, '10.0.0.4'],
      ])
        expect((await logIn(typed, 'wrong password!', address)).status).toBe(401);
      expect((await logIn(OWNER, PASSWORD, '10.0.0.5')).status).toBe(429);
      expect((await logIn(FULL_WIDTH, PASSWORD, '10.0.0.6')).status).toBe(429);
    } finally {
      await store.close();
    }
  });
});

describe('listings operators add', () => {
  it('refuses an email holding an invisible character, naming it, and adds nothing', async () => {
    const db = join(dir, 'cli.db');
    // operators add refuses a missing database: db migrate makes an empty one.
    expect(await runCli(['db', 'migrate'], bufferIo({ LISTINGS_DB: db }))).toBe(0);
    expect(await runCli(['operators', 'add', OWNER], bufferIo({ LISTINGS_DB: db }, `${PASSWORD}\n`))).toBe(0);
    const io = bufferIo({ LISTINGS_DB: db }, `${PASSWORD}\n`);
    expect(await runCli(['operators', 'add', HIDDEN], io)).not.toBe(0);
    expect(io.stderr()).toContain('U+200B');
    const list = bufferIo({ LISTINGS_DB: db });
    expect(await runCli(['operators', 'list', '--json'], list)).toBe(0);
    expect(JSON.parse(list.stdout()).map((o: { email: string }) => o.email)).toEqual([OWNER]);
  });
});

/** The schema before emails had a normal form, and operators stored as earlier releases stored them. */
const OLD_VERSION = 18;
const OLD_ROWS = [DECOMPOSED, OWNER, FULL_WIDTH, '\uff41nna@example.com', 'x\u200b@example.com']
  .map(
    (email, i) =>
      `INSERT INTO operators (id, email, password_hash, created_at, password_changed_at)
       VALUES ('op_${i}', '${email}', 'h', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z');`,
  )
  .join('\n');

const old: Record<string, () => Promise<string>> = {
  SQLite: async () => sqliteAt(dir, OLD_VERSION, OLD_ROWS, `old-${files++}.db`),
  PostgreSQL: () => postgresAt(pg, OLD_VERSION, OLD_ROWS),
};

describe.each(Object.keys(old))('the migration to normal emails on %s', (name) => {
  it('rewrites each stored email alone in its normal form, and leaves and audits those that would collide', async () => {
    const store = await openStore(await old[name]!());
    try {
      const byId = Object.fromEntries((await store.listOperators()).map((o) => [o.id, o.email]));
      expect(byId).toEqual({
        op_0: PRECOMPOSED,
        op_1: OWNER,
        op_2: FULL_WIDTH,
        op_3: 'anna@example.com',
        op_4: 'x\u200b@example.com',
      });
      // The two that share a normal form are each found by the form they are stored in.
      expect((await store.operator('email', OWNER))?.id).toBe('op_1');
      expect((await store.operator('email', FULL_WIDTH))?.id).toBe('op_2');
      expect((await store.operator('email', DECOMPOSED))?.id).toBe('op_0');
      expect((await store.operator('email', '\uff21NNA@example.com'))?.id).toBe('op_3');
      const kept = await store.listAudit({ action: 'operator.email_kept' });
      expect(kept.map((r) => [r.detail.operator, r.detail.reason]).sort()).toEqual(
        [
          [OWNER, 'shared_normal_form'],
          [FULL_WIDTH, 'shared_normal_form'],
          ['x\u200b@example.com', 'hidden_character'],
        ].sort(),
      );
    } finally {
      await store.close();
    }
  });
});
