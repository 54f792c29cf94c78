// Device cookies keep the login limits' promise: strangers who fail logins on an operator's account from many addresses
// lock out every browser without a device cookie of it, never the operator's own; a stolen device cookie gives a few
// guesses of its own and no more; a new password voids them. Over a real socket behind a trusted proxy with the default
// limits, and in process on a SQLite file and on PostgreSQL alike.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../server/domain/passwords.ts';
import { parseTrustedProxies } from '../server/http/transport/client-address.ts';
import { inject } from '../server/http/inject.ts';
import { createPanelHandler } from '../server/panel/handler.ts';
import { LoginLimiter } from '../server/panel/login-limits.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { tempDir } from './helpers/fixture.ts';
import { OPERATOR, PASSWORD } from './helpers/panel.ts';
import { panelSocketEachTest, postLogin } from './helpers/panel-socket.ts';
import { usePostgres } from './helpers/postgres.ts';

const WRONG = 'wrong password!';

/** The device cookie among an answer's Set-Cookie lines, as `name=value`. */
const deviceIn = (setCookies: readonly string[]) =>
  setCookies.map((c) => c.split(';')[0]!).find((c) => c.startsWith('listings_panel_device='));

describe('behind a trusted proxy, with the default limits', () => {
  const startPanelSocket = panelSocketEachTest();

  it('fifty failures from ten addresses lock out a new browser, not the one the operator logged in from', async () => {
    const { panel, store } = await startPanelSocket({ trustedProxies: parseTrustedProxies('loopback') });
    const url = panel.url;
    const logIn = async (client: string, password: string, cookie?: string) => {
      const r = await postLogin(
        url,
        { email: 'lock@x.test', password },
        { 'x-forwarded-for': client, ...(cookie && { cookie }) },
      );
      await r.arrayBuffer();
      return { status: r.status, retryAfter: r.headers.get('retry-after'), cookies: r.headers.getSetCookie() };
    };
    await store.addOperator('lock@x.test', await hashPassword(PASSWORD));

    const first = await logIn('198.51.100.7', PASSWORD);
    expect(first.status).toBe(303);
    // Two cookies, each a header of its own: the session's, then the device's.
    expect(first.cookies).toHaveLength(2);
    expect(first.cookies[0]).toMatch(/^listings_panel=/);
    const device = deviceIn(first.cookies);
    expect(device).toBeDefined();

    for (let a = 1; a <= 10; a++)
      for (let i = 0; i < 5; i++) expect((await logIn(`203.0.113.${a}`, WRONG)).status).toBe(401);

    // Guesses spread over many addresses stay few: a browser without a device cookie of the account is refused.
    const stranger = await logIn('192.0.2.200', PASSWORD);
    expect(stranger.status).toBe(429);
    expect(Number(stranger.retryAfter)).toBeGreaterThan(800);
    // The operator's own browser, from an address never used before, is not.
    const own = await logIn('192.0.2.201', PASSWORD, device);
    expect(own.status).toBe(303);
    expect(deviceIn(own.cookies)).toBeDefined();
    // Its login left the account's count as it was: strangers are still refused.
    expect((await logIn('192.0.2.202', PASSWORD)).status).toBe(429);
  });
});

// Smaller than the defaults, the same rules; every try costs a real scrypt.
const LIMITS = { perAccount: 3, perAccountFromAddress: 2, perAddress: 100, perDevice: 2, windowMs: 60_000 };

/** A panel on `store` with LIMITS on a fake clock: a login's status, Retry-After and device cookie. */
function panelOn(store: Store, clock: { now: number }) {
  const handle = createPanelHandler({
    store,
    origin: { origin: 'http://127.0.0.1:8788', secure: false },
    publicUrl: 'http://127.0.0.1:8787',
    keyPrefix: 'svc',
    limiter: new LoginLimiter(LIMITS, () => clock.now),
    now: () => clock.now,
  });
  return async (email: string, password: string, address: string, cookie?: string) => {
    const r = await inject(handle, {
      method: 'POST',
      url: '/login',
      headers: { origin: 'http://127.0.0.1:8788', 'content-type': 'application/x-www-form-urlencoded', cookie },
      body: Buffer.from(new URLSearchParams({ email, password }).toString()),
      remoteAddress: address,
    });
    const device = deviceIn(r.headers['set-cookie']?.split('\n') ?? []);
    return { status: r.status, retryAfter: Number(r.headers['retry-after'] ?? 0), device };
  };
}

async function deviceCookiesOn(store: Store) {
  const clock = { now: Date.parse('2030-01-01T00:00:00Z') };
  const logIn = panelOn(store, clock);
  await store.addOperator(OPERATOR, await hashPassword(PASSWORD));
  await store.addOperator('other@example.com', await hashPassword(PASSWORD), 'manager');
  const lockAccount = async (email = OPERATOR) => {
    for (let i = 1; i <= 3; i++) expect((await logIn(email, WRONG, `10.9.0.${i}`)).status).toBe(401);
    expect((await logIn(email, PASSWORD, '10.9.1.1')).status).toBe(429);
  };

  const home = (await logIn(OPERATOR, PASSWORD, '10.0.0.1')).device!;
  const stolen = home;
  await lockAccount();
  const again = await logIn(OPERATOR, PASSWORD, '10.0.0.2', home);
  expect(again.status).toBe(303);
  const renewed = again.device!;
  expect(renewed).not.toBe(home);

  // A stolen device cookie: two guesses of its own, then it exempts no more and the account's lock holds it.
  expect((await logIn(OPERATOR, WRONG, '10.6.6.6', stolen)).status).toBe(401);
  expect((await logIn(OPERATOR, WRONG, '10.6.6.7', stolen)).status).toBe(401);
  expect(await logIn(OPERATOR, PASSWORD, '10.6.6.8', stolen)).toMatchObject({ status: 429, retryAfter: 60 });
  // The operator's renewed cookie is a device of its own, untouched by the stolen one's failures.
  expect((await logIn(OPERATOR, PASSWORD, '10.0.0.3', renewed)).status).toBe(303);
  // Past the window the stolen cookie's failures are forgotten, as an address's are.
  clock.now += 60_001;
  await lockAccount();
  expect((await logIn(OPERATOR, PASSWORD, '10.6.6.9', stolen)).status).toBe(303);

  // A cookie names one account: it exempts no other, nor does one changed by a character.
  clock.now += 60_001;
  const other = (await logIn('other@example.com', PASSWORD, '10.0.0.4')).device!;
  await lockAccount();
  expect((await logIn(OPERATOR, PASSWORD, '10.0.0.5', other)).status).toBe(429);
  const [name, id, device, ...rest] = renewed.split(/[=.]/);
  const tampered = `${name}=${id}.${device!.startsWith('A') ? 'B' : 'A'}${device!.slice(1)}.${rest.join('.')}`;
  expect((await logIn(OPERATOR, PASSWORD, '10.0.0.5', tampered)).status).toBe(429);

  // A new role leaves device cookies as they are: they prove a past login, they grant nothing.
  await lockAccount('other@example.com');
  await store.setOperatorRole('other@example.com', 'viewer');
  expect((await logIn('other@example.com', PASSWORD, '10.0.0.6', other)).status).toBe(303);

  // A new password voids every device cookie of the account.
  await store.setOperatorPassword(OPERATOR, await hashPassword('a new password, long enough'));
  expect((await logIn(OPERATOR, 'a new password, long enough', '10.0.0.7', renewed)).status).toBe(429);

  // A device cookie is refused once it is 180 days old.
  clock.now += 60_001;
  const fresh = (await logIn(OPERATOR, 'a new password, long enough', '10.0.0.8')).device!;
  clock.now += 180 * 24 * 60 * 60 * 1000;
  for (let i = 1; i <= 3; i++) await logIn(OPERATOR, WRONG, `10.8.0.${i}`);
  expect((await logIn(OPERATOR, 'a new password, long enough', '10.0.0.9', fresh)).status).toBe(429);
}

describe('device cookies in the store', () => {
  it('on a SQLite file', async () => {
    const { dir, cleanup } = tempDir();
    const store = await openStore(join(dir, 'listings.db'));
    try {
      await deviceCookiesOn(store);
    } finally {
      await store.close();
      cleanup();
    }
  });

  describe('on PostgreSQL', () => {
    const postgres = usePostgres();

    it('the same', async () => {
      const store = await openStore(await postgres.server().newDatabase());
      try {
        await deviceCookiesOn(store);
      } finally {
        await store.close();
      }
    });
  });
});
