// Turning two-factor login on ends the account's other sessions, on a real panel over SQLite and over PostgreSQL, with
// PANEL_REQUIRE_2FA and without: a session made with the password alone (someone who knows it) gets nothing more once
// the operator enrols, and a session of an account with two-factor counts only when it was made with the code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../server/domain/passwords.ts';
import { newSession } from '../server/domain/sessions.ts';
import { totpCodeAt } from '../server/domain/totp.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { tempDir } from './helpers/fixture.ts';
import { postgresAt, sqliteAt } from './helpers/old-schema.ts';
import { OPERATOR, PASSWORD, panelClient, panelOver, panelStore } from './helpers/panel.ts';
import { panelSocketEachTest, postLogin } from './helpers/panel-socket.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';

let pg: PgServer;
beforeAll(async () => {
  pg = await startPostgres();
});
afterAll(() => pg?.close());

const stores: Record<string, () => Promise<{ store: Store; cleanup: () => Promise<void> }>> = {
  SQLite: () => panelStore(),
  PostgreSQL: async () => {
    const store = await openStore(await pg.newDatabase());
    await store.addOperator(OPERATOR, await hashPassword(PASSWORD));
    return { store, cleanup: () => store.close() };
  },
};

/** A browser's requests to the panel with one session cookie, not following redirects. */
function browser(url: string, cookie: string) {
  const get = (path: string) => fetch(`${url}${path}`, { redirect: 'manual', headers: { cookie } });
  const post = (path: string, form: Record<string, string>) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, origin: url, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
  return { get, post };
}

async function logIn(url: string) {
  const answer = await postLogin(url, { email: OPERATOR, password: PASSWORD });
  expect(answer.status).toBe(303);
  const cookie = answer.headers.getSetCookie()[0]!.split(';')[0]!;
  return { landing: answer.headers.get('location'), ...browser(url, cookie) };
}

/** Where a GET of `path` ends up for this browser: 200 where it is shown, else the redirect's target. */
async function whereTo(b: ReturnType<typeof browser>, path: string) {
  const answer = await b.get(path);
  return answer.status === 200 ? 200 : answer.headers.get('location');
}

/** The operator enrols from `b`: the enrolment page, then a first code. */
async function enrolFrom(store: Store, b: ReturnType<typeof browser>) {
  const page = await (await b.get('/account/2fa')).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
  const secret = (await store.operator('email', OPERATOR))!.totp_secret!;
  const done = await b.post('/account/2fa', { csrf, code: totpCodeAt(secret, Date.now()) });
  expect(done.status).toBe(200);
  return csrf;
}

describe.each(Object.keys(stores))('turning two-factor on, on %s', (name) => {
  const startPanel = panelSocketEachTest(stores[name]);
  async function start(require2fa: boolean) {
    const { panel, store } = await startPanel({ require2fa });
    return { store, url: panel.url };
  }

  it.each([true, false])(
    'ends a password-only session of the account, and keeps the enrolling one (PANEL_REQUIRE_2FA %s)',
    async (require2fa) => {
      const { store, url } = await start(require2fa);
      const attacker = await logIn(url);
      expect(attacker.landing).toBe(require2fa ? '/account/2fa' : '/');
      const operator = await logIn(url);
      const csrf = await enrolFrom(store, operator);

      for (const path of ['/', '/audit', '/account', '/account/2fa', '/facilities/wro-1'])
        expect([path, await whereTo(attacker, path)]).toEqual([path, '/login']);
      expect((await attacker.post('/logout', { csrf: 'x' })).status).toBe(401);
      // The enrolling session goes on as a complete login.
      for (const path of ['/', '/audit', '/account'])
        expect([path, await whereTo(operator, path)]).toEqual([path, 200]);
      expect((await operator.post('/account/sessions', { csrf })).status).toBe(200);

      const [enrolled] = await store.listAudit({ action: '2fa.enrol', limit: 1 });
      const [ended] = await store.listAudit({ action: 'logout.everywhere', actor: OPERATOR, limit: 1 });
      expect(ended!.id).toBeGreaterThan(enrolled!.id);
    },
  );

  it.each([true, false])(
    'refuses a session made with the password alone once the account has two-factor (PANEL_REQUIRE_2FA %s)',
    async (require2fa) => {
      const { store, url } = await start(require2fa);
      await enrolFrom(store, await logIn(url));
      // A password login that read the account before enrolment and made its session after: no code was given.
      const op = (await store.operator('email', OPERATOR))!;
      const late = newSession(op.id, new Date(), { twoFactor: false });
      await store.createSession(late.row);
      const b = browser(url, `listings_panel=${late.token}`);
      expect(await whereTo(b, '/')).toBe('/login');
      expect(await store.session(late.row.digest)).toBeUndefined();
    },
  );
});

/** Sessions stored before sessions recorded a code: of an account with two-factor, and of one without. */
function oldSessions() {
  const [withCode, without] = [newSession('op_2fa'), newSession('op_plain')];
  const at = new Date().toISOString();
  const rows = `
    INSERT INTO operators (id, email, password_hash, created_at, password_changed_at, totp_secret, totp_enabled_at)
      VALUES ('op_2fa', 'a@example.com', 'h', '${at}', '${at}', 'JBSWY3DPEHPK3PXP', '${at}'),
             ('op_plain', 'b@example.com', 'h', '${at}', '${at}', NULL, NULL);
    INSERT INTO operator_sessions (digest, operator_id, csrf, created_at, seen_at)
      VALUES ('${withCode.row.digest}', 'op_2fa', 'c', '${at}', '${at}'),
             ('${without.row.digest}', 'op_plain', 'c', '${at}', '${at}');`;
  return { rows, tokens: [withCode.token, without.token] };
}

describe.each(['SQLite', 'PostgreSQL'])('sessions from before the upgrade, on %s', (name) => {
  it('count as made without a code: ended for an account with two-factor, kept for one without', async () => {
    const { rows, tokens } = oldSessions();
    const { dir, cleanup: removeDir } = tempDir();
    const location = name === 'SQLite' ? sqliteAt(dir, 17, rows) : await postgresAt(pg, 17, rows);
    const store = await openStore(location);
    try {
      const { request } = panelClient(() => panelOver(store));
      const statuses = [];
      for (const token of tokens)
        statuses.push((await request('GET', '/', { headers: { cookie: `listings_panel=${token}` } })).status);
      expect(statuses).toEqual([303, 200]);
    } finally {
      await store.close();
      removeDir();
    }
  });
});
