// The panel's cap on password checks, over a real socket behind a trusted proxy, counted in hashes (a check held open
// until the test lets it finish), never timed: logins from many addresses past the cap are answered at once, 503 with
// Retry-After in the panel's language, unhashed and uncounted; an unknown account costs one hash as a known one does;
// a browser with a device cookie is checked beside the cap.
import { expect, it } from 'vitest';
import { verifyPassword } from '../server/domain/passwords.ts';
import { parseTrustedProxies } from '../server/http/transport/client-address.ts';
import { LoginLimiter } from '../server/panel/login-limits.ts';
import { PASSWORD_CHECKS_AT_ONCE, PasswordChecks } from '../server/panel/password-checks.ts';
import { MESSAGES } from '../server/panel/i18n/i18n.ts';
import { OPERATOR, PASSWORD } from './helpers/panel.ts';
import { panelSocketEachTest, postLogin } from './helpers/panel-socket.ts';
import { until } from './helpers/wait.ts';

const startPanelSocket = panelSocketEachTest();

/** A real scrypt per check, counted, each held until `finish()` when `hold` is on. */
function heldHashes() {
  const state = { hashes: 0, hold: false, waiting: [] as (() => void)[] };
  const verify = async (password: string, stored: string) => {
    state.hashes++;
    if (state.hold) await new Promise<void>((resolve) => state.waiting.push(resolve));
    return verifyPassword(password, stored);
  };
  const finish = () => {
    state.hold = false;
    for (const go of state.waiting.splice(0)) go();
  };
  return { state, verify, finish };
}

async function panelWith(verify: (password: string, stored: string) => Promise<boolean>) {
  const { panel } = await startPanelSocket({
    trustedProxies: parseTrustedProxies('loopback'),
    // Three failures lock the account: had the tries turned away been counted, it would be locked.
    limiter: new LoginLimiter({ perAccount: 3, perAddress: 100, windowMs: 60_000 }),
    passwordChecks: new PasswordChecks(PASSWORD_CHECKS_AT_ONCE, verify),
  });
  const url = panel.url;
  return async (email: string, password: string, client: string, headers: Record<string, string> = {}) => {
    const r = await postLogin(url, { email, password }, { 'x-forwarded-for': client, ...headers });
    const device = r.headers
      .getSetCookie()
      .map((c) => c.split(';')[0]!)
      .find((c) => c.startsWith('listings_panel_device='));
    return { status: r.status, retryAfter: r.headers.get('retry-after'), body: await r.text(), device };
  };
}

it('checks one password at a time and answers the rest at once, 503 in their language, unhashed and uncounted', async () => {
  expect(PASSWORD_CHECKS_AT_ONCE).toBe(1);
  const { state, verify, finish } = heldHashes();
  const logIn = await panelWith(verify);

  // An unknown account costs one hash, as a known one does.
  expect((await logIn('nobody@example.com', 'wrong password!', '203.0.113.1')).status).toBe(401);
  expect(state.hashes).toBe(1);
  expect((await logIn(OPERATOR, 'wrong password!', '203.0.113.1')).status).toBe(401);
  expect(state.hashes).toBe(2);

  // A check held open: every other try from anywhere is answered at once, without a hash.
  state.hold = true;
  const first = logIn('nobody@example.com', 'wrong password!', '203.0.113.2');
  await until('the first check to start', () => state.hashes === 3);
  const flood = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      logIn(
        i % 2 ? OPERATOR : `nobody${i}@example.com`,
        i === 5 ? PASSWORD : 'wrong password!',
        `203.0.113.${10 + i}`,
        {
          'accept-language': 'pl',
        },
      ),
    ),
  );
  for (const r of flood) {
    expect(r.status).toBe(503);
    expect(r.retryAfter).toBe('1');
    expect(r.body).toContain(MESSAGES.pl.busyLogin);
  }
  expect(state.hashes).toBe(3);
  finish();
  expect((await first).status).toBe(401);

  // Turned away, never counted: the account has the one failure above, and the right password gets in.
  expect((await logIn(OPERATOR, PASSWORD, '203.0.113.15')).status).toBe(303);
  expect(state.hashes).toBe(4);
});

it('checks a browser with a device cookie beside the cap, while strangers hold it', async () => {
  const { state, verify, finish } = heldHashes();
  const logIn = await panelWith(verify);
  const { device } = await logIn(OPERATOR, PASSWORD, '198.51.100.7');
  expect(device).toBeDefined();

  state.hold = true;
  const stranger = logIn('nobody@example.com', 'wrong password!', '203.0.113.2');
  await until('the stranger’s check to start', () => state.hashes === 2);
  expect((await logIn(OPERATOR, PASSWORD, '203.0.113.3')).status).toBe(503);
  expect(state.hashes).toBe(2);
  const own = logIn(OPERATOR, PASSWORD, '198.51.100.8', { cookie: device! });
  await until('the operator’s check to start', () => state.hashes === 3);
  finish();
  expect((await own).status).toBe(303);
  expect((await stranger).status).toBe(401);
});
