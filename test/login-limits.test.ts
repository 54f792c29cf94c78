// Login limits live in the store: two panels on one database share them, a restarted panel keeps them, and tries sent
// at once cannot get past the limit together; on a SQLite file and on PostgreSQL alike.
import Database from 'better-sqlite3';
import { inject } from '../server/http/inject.ts';
import { join } from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../server/domain/passwords.ts';
import { createPanelHandler } from '../server/panel/handler.ts';
import { LoginLimiter } from '../server/panel/login-limits.ts';
import { PasswordChecks } from '../server/panel/password-checks.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { tempDir } from './helpers/fixture.ts';
import { usePostgres } from './helpers/postgres.ts';

const ORIGIN = 'http://127.0.0.1:8788';
const PASSWORD = 'correct horse battery staple';
const WRONG = 'wrong password!';
// Smaller than the defaults, the same rules: every try costs a real scrypt.
const LIMITS = { perAccount: 3, perAddress: 6, windowMs: 60_000 };

/** A panel process on `store`, with its own limiter on a shared fake clock (and `checks` password checks at once). */
function panelOn(store: Store, clock: { now: number }, checks = 8) {
  const handle = createPanelHandler({
    store,
    origin: { origin: ORIGIN, secure: false },
    publicUrl: 'http://127.0.0.1:8787',
    keyPrefix: 'svc',
    limiter: new LoginLimiter(LIMITS, () => clock.now),
    // Room for every try of a burst: only the limits decide here (panel-password-checks.test.ts tests the cap).
    passwordChecks: new PasswordChecks(checks),
  });
  return async (email: string, password: string, address = '10.0.0.1') => {
    const r = await inject(handle, {
      method: 'POST',
      url: '/login',
      headers: { origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(new URLSearchParams({ email, password }).toString()),
      remoteAddress: address,
    });
    return { status: r.status, retryAfter: Number(r.headers['retry-after'] ?? 0) };
  };
}

/** The same story on any database: `open` gives a new store handle on it, as a new panel process would have. */
async function limitsSurviveAndAreShared(open: () => Promise<Store>) {
  const clock = { now: Date.parse('2030-01-01T00:00:00Z') };
  const first = await open();
  const second = await open();
  await first.addOperator('ops@example.com', await hashPassword(PASSWORD));
  try {
    const a = panelOn(first, clock);
    const b = panelOn(second, clock);
    for (let i = 0; i < 2; i++) expect((await a('ops@example.com', WRONG)).status).toBe(401);
    expect((await b('Ops@Example.com', WRONG, '10.0.0.2')).status).toBe(401);
    // Three failures through two panels lock the account on both, right password or not, from any address.
    const locked = await a('ops@example.com', PASSWORD, '10.0.0.3');
    expect(locked.status).toBe(429);
    expect(locked.retryAfter).toBe(60);
    expect((await b('ops@example.com', PASSWORD)).status).toBe(429);

    // A restart: a new process on the same database still refuses.
    await first.close();
    const restarted = await open();
    try {
      const c = panelOn(restarted, clock);
      clock.now += 30_000;
      expect(await c('ops@example.com', PASSWORD)).toEqual({ status: 429, retryAfter: 30 });
      clock.now += 30_001;
      expect((await c('ops@example.com', PASSWORD)).status).toBe(303);
      // The success cleared the account, on the other panel too.
      for (let i = 0; i < 2; i++) expect((await b('ops@example.com', WRONG, '10.0.0.9')).status).toBe(401);
      expect((await c('ops@example.com', PASSWORD, '10.0.0.9')).status).toBe(303);

      // An address: 6 failures through both panels on any accounts lock it, for every account.
      for (let i = 0; i < 6; i++) await (i % 2 ? b : c)(`nobody${i}@example.com`, WRONG, '10.9.9.9');
      expect((await b('ops@example.com', PASSWORD, '10.9.9.9')).status).toBe(429);
      expect((await c('ops@example.com', PASSWORD, '10.9.9.9')).status).toBe(429);
      expect((await c('ops@example.com', PASSWORD, '10.0.0.4')).status).toBe(303);
    } finally {
      await restarted.close();
    }

    // Tries sent at once to two panels: exactly the limit gets to check a password, the rest wait.
    clock.now += 120_000;
    const third = await open();
    try {
      const d = panelOn(third, clock);
      const burst = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? b : d)('ops@example.com', WRONG, `10.1.0.${i}`)),
      );
      expect(burst.filter((r) => r.status === 401)).toHaveLength(3);
      expect(burst.filter((r) => r.status === 429)).toHaveLength(5);
    } finally {
      await third.close();
    }
  } finally {
    await second.close();
    await first.close().catch(() => {});
  }
}

describe('login limits in the store', () => {
  it('are shared by two panels on one SQLite file and survive a restart', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = join(dir, 'listings.db');
      await limitsSurviveAndAreShared(() => openStore(file));
    } finally {
      cleanup();
    }
  });

  describe('on PostgreSQL', () => {
    const postgres = usePostgres();

    it('are shared by two panels on one database and survive a restart', async () => {
      const url = await postgres.server().newDatabase();
      await limitsSurviveAndAreShared(() => openStore(url));
    });
  });
});

/**
 * A panel with no password check slot free turns every try away (503) but a device cookie's: decided by reading the
 * counts alone, so a flood of such tries waits for no write lock, `hold` held by another process, and counts nothing.
 * A try the limits refuse is still refused (429) first.
 */
async function busyTriesWriteNothing(
  store: Store,
  hold: () => Promise<() => Promise<void>>,
  failures: () => Promise<number>,
) {
  const clock = { now: Date.now() };
  await store.addOperator('ops@example.com', await hashPassword(PASSWORD));
  for (let i = 0; i < 3; i++)
    expect((await panelOn(store, clock)('ops@example.com', WRONG, '10.7.0.1')).status).toBe(401);
  const before = await failures();
  const full = panelOn(store, clock, 0);
  const release = await hold();
  try {
    expect((await full('ops@example.com', PASSWORD, '10.7.0.2')).status).toBe(429);
    expect((await full('someone@example.com', WRONG, '10.7.0.3')).status).toBe(503);
  } finally {
    await release();
  }
  expect(await failures()).toBe(before);
}

describe('a try turned away for want of a password check slot', () => {
  it('takes no write lock and counts nothing on SQLite', async () => {
    const { dir, cleanup } = tempDir();
    const file = join(dir, 'listings.db');
    const store = await openStore(file, { busyTimeoutMs: 200 });
    const other = new Database(file);
    try {
      const hold = async () => {
        other.exec('BEGIN IMMEDIATE');
        return async () => void other.exec('ROLLBACK');
      };
      const failures = async () => other.prepare('SELECT count(*) AS n FROM login_failures').get() as { n: number };
      await busyTriesWriteNothing(store, hold, async () => (await failures()).n);
    } finally {
      other.close();
      await store.close();
      cleanup();
    }
  });

  describe('on PostgreSQL', () => {
    const postgres = usePostgres();

    it('takes no lock on the counts and counts nothing', { timeout: 20_000 }, async () => {
      const url = await postgres.server().newDatabase();
      const store = await openStore(url);
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      try {
        const hold = async () => {
          await other.query('BEGIN');
          // What a try that counts must take: a try that waits for it here never answers.
          await other.query('LOCK TABLE login_failures IN SHARE ROW EXCLUSIVE MODE');
          return async () => void (await other.query('ROLLBACK'));
        };
        const failures = async () =>
          (await other.query<{ n: number }>('SELECT count(*)::int AS n FROM login_failures')).rows[0]!.n;
        await busyTriesWriteNothing(store, hold, failures);
      } finally {
        await other.end();
        await store.close();
      }
    });
  });
});
