// The operator's panel in process, who may do what: no page or action without a session, a cookie that acts as its own
// account only, cross-site changes refused, logins limited, and a login over a real socket.
import { inject } from '../server/http/inject.ts';
import { parseSetCookie } from 'cookie';
import { describe, expect, it } from 'vitest';
import { hashPassword } from '../server/domain/passwords.ts';
import { newSession } from '../server/domain/sessions.ts';
import { COOKIE_HEADER_BYTES } from '../server/panel/http.ts';
import { LoginLimiter } from '../server/panel/login-limits.ts';
import { DEFAULT_LOGIN_LIMITS } from '../server/domain/login-limits.ts';
import { PANEL_ORIGIN as ORIGIN, PASSWORD, usePanel } from './helpers/panel.ts';

const panel = usePanel();
const { request, logIn, session } = panel.client;

describe('no page or action without a session', () => {
  it('sends pages to the login form and refuses actions', async () => {
    for (const path of ['/', '/facilities/wro-1', '/facilities/wro-1/api', '/import', '/audit'])
      expect(await request('GET', path)).toMatchObject({ status: 303, headers: { location: '/login' } });
    expect((await request('POST', '/facilities/wro-1/keys', { form: {} })).status).toBe(401);
    expect((await request('POST', '/logout', { form: {} })).status).toBe(401);
    const login = await request('GET', '/login');
    expect(login.status).toBe(200);
    expect(login.headers['content-security-policy']).toContain("script-src 'self'");
    expect(String(login.body)).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });

  it('gives HttpOnly SameSite=Strict session and device cookies, Secure and __Host- when the panel is https', async () => {
    const cookiesOf = (answer: { headers: Record<string, string> }) =>
      answer.headers['set-cookie']!.split('\n').map((c) => parseSetCookie(c));
    const [session, device] = cookiesOf(await logIn());
    expect(session).toEqual({
      name: 'listings_panel',
      value: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      maxAge: 12 * 60 * 60,
    });
    const op = (await panel.store.operator('email', 'ops@example.com'))!;
    expect(device).toEqual({
      name: 'listings_panel_device',
      value: expect.stringMatching(new RegExp(`^${op.id}\\.[A-Za-z0-9_-]{22}\\.\\d+\\.[A-Za-z0-9_-]{43}$`)),
      path: '/',
      httpOnly: true,
      sameSite: 'strict',
      maxAge: 180 * 24 * 60 * 60,
    });
    panel.handle = panel.over({ origin: { origin: 'https://panel.example', secure: true } });
    const secure = await inject(panel.handle, {
      method: 'POST',
      url: '/login',
      headers: { origin: 'https://panel.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(new URLSearchParams({ email: 'ops@example.com', password: PASSWORD }).toString()),
      remoteAddress: '10.0.0.1',
    });
    const [secureSession, secureDevice] = cookiesOf(secure);
    for (const [cookie, name] of [
      [secureSession, '__Host-listings_panel'],
      [secureDevice, '__Host-listings_panel_device'],
    ] as const)
      expect(cookie).toMatchObject({ name, path: '/', httpOnly: true, sameSite: 'strict', secure: true });
  });

  it('refuses an expired session, a removed account and a logged-out cookie', async () => {
    const op = (await panel.store.operator('email', 'ops@example.com'))!;
    const old = newSession(op.id, new Date(Date.now() - 31 * 60 * 1000));
    await panel.store.createSession(old.row);
    const cookie = `listings_panel=${old.token}`;
    expect((await request('GET', '/', { headers: { cookie } })).status).toBe(303);
    expect(await panel.store.session(old.row.digest)).toBeUndefined();
    const forgotten = newSession(op.id, new Date(Date.now() - 13 * 60 * 60 * 1000));
    await panel.store.createSession(forgotten.row);
    await logIn();
    expect(await panel.store.session(forgotten.row.digest)).toBeUndefined();

    const s = await session();
    expect((await s.as('GET', '/')).status).toBe(200);
    expect((await s.as('POST', '/logout')).status).toBe(303);
    expect((await s.as('GET', '/')).status).toBe(303);

    const t = await session();
    await panel.store.removeOperator('ops@example.com');
    expect((await t.as('GET', '/')).status).toBe(303);
  });

  it("acts as the cookie's own account only", async () => {
    await panel.store.addOperator('other@example.com', await hashPassword(PASSWORD));
    const a = await session();
    const page = String((await a.as('GET', '/')).body);
    expect(page).toContain('ops@example.com');
    expect(page).not.toContain('other@example.com');
    await a.as('POST', '/facilities/wro-1/keys', { label: 'a' });
    expect((await panel.store.listAudit())[0]).toMatchObject({ actor: 'ops@example.com', action: 'key.create' });
  });

  it('finds its cookie among others, the first of a repeated name, and reads no Cookie header past its cap', async () => {
    const s = await session();
    const status = async (cookie: string) => (await request('GET', '/', { headers: { cookie } })).status;
    expect(await status(`theme=dark; ${s.cookie}; lang=pl`)).toBe(200);
    expect(await status(`${s.cookie}; listings_panel=${'A'.repeat(43)}`)).toBe(200);
    expect(await status(`listings_panel=${'A'.repeat(43)}; ${s.cookie}`)).toBe(303);
    const padding = `other=${'x'.repeat(COOKIE_HEADER_BYTES)}`;
    expect(await status(`${s.cookie}; ${padding.slice(0, COOKIE_HEADER_BYTES - s.cookie.length - 2)}`)).toBe(200);
    expect(await status(`${s.cookie}; ${padding}`)).toBe(303);
  });
});

describe('routes', () => {
  it('answers a method a page does not take with 405 and its Allow, an unknown page with 404, as plain pages', async () => {
    const s = await session();
    const wrong = await s.as('DELETE', '/audit');
    expect(wrong).toMatchObject({ status: 405, headers: { allow: 'GET, HEAD' } });
    expect(wrong.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(wrong.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await s.as('GET', '/logout')).headers.allow).toBe('POST');
    expect((await s.as('PUT', '/facilities/wro-1/api')).headers.allow).toBe('GET, HEAD');
    expect((await request('PUT', '/login', { form: {} })).headers.allow).toBe('GET, HEAD, POST');
    expect((await s.as('GET', '/facilities/wro-1/nothing')).status).toBe(404);
    expect((await s.as('GET', '/facilities/NOT_AN_ID')).status).toBe(404);
    const head = await s.as('HEAD', '/audit');
    expect(head.status).toBe(200);
  });

  it('answers OPTIONS and other methods a page does not take with 405 before the form token or origin is asked for', async () => {
    const s = await session();
    for (const [method, url] of [
      ['OPTIONS', '/audit'],
      ['DELETE', '/facilities/wro-1/api'],
      ['OPTIONS', '/login'],
    ] as const) {
      // No form token, no Origin: nothing would change, so nothing is refused as a forged change.
      for (const cookie of [s.cookie, undefined]) {
        const answer = await request(method, url, { headers: { origin: undefined, ...(cookie && { cookie }) } });
        expect(answer.status, `${method} ${url}`).toBe(405);
        expect(answer.headers.allow).toBe(url === '/login' ? 'GET, HEAD, POST' : 'GET, HEAD');
      }
    }
    // A method a page takes is still guarded.
    expect((await request('POST', '/facilities/wro-1/keys', { headers: { cookie: s.cookie } })).status).toBe(403);
  });
});

describe('cross-site changes', () => {
  it('refuses a POST from another origin, with no origin, or without the form token', async () => {
    const s = await session();
    const cross = await s.as('POST', '/facilities/wro-1/keys', {}, { origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    const noOrigin = await request('POST', '/facilities/wro-1/keys', {
      headers: { cookie: s.cookie, origin: undefined },
      form: { csrf: s.csrf },
    });
    expect(noOrigin.status).toBe(403);
    const referer = await request('POST', '/facilities/wro-1/keys', {
      headers: { cookie: s.cookie, origin: undefined, referer: `${ORIGIN}/facilities/wro-1/api` },
      form: { csrf: s.csrf },
    });
    expect(referer.status).toBe(303);
    const noToken = await request('POST', '/facilities/wro-1/keys', { headers: { cookie: s.cookie }, form: {} });
    expect(noToken.status).toBe(403);
    expect((await request('POST', '/login', { headers: { origin: 'https://evil.example' }, form: {} })).status).toBe(
      403,
    );
    expect(await panel.store.listKeys('wro-1')).toHaveLength(1);
  });
});

describe('login limits', () => {
  it('locks an account after 5 failures, even for the right password, and an address after 20', async () => {
    let now = 0;
    panel.handle = panel.over({
      limiter: new LoginLimiter({ perAccount: 5, perAddress: 20, windowMs: 60_000 }, () => now),
    });
    for (let i = 0; i < 5; i++) expect((await logIn('ops@example.com', 'wrong password!')).status).toBe(401);
    const locked = await logIn();
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await logIn('ops@example.com', PASSWORD, '10.0.0.2')).status).toBe(429);
    now = 60_001;
    expect((await logIn()).status).toBe(303);
    for (let i = 0; i < 20; i++) await logIn(`nobody${i}@example.com`, 'wrong password!', '10.9.9.9');
    expect((await logIn('ops@example.com', PASSWORD, '10.9.9.9')).status).toBe(429);
    expect((await logIn('ops@example.com', PASSWORD, '10.0.0.3')).status).toBe(303);
  });

  it("failures from one address lock that address out of the account, not the operator elsewhere; many addresses' do", async () => {
    let now = 0;
    panel.handle = panel.over({
      limiter: new LoginLimiter(
        { perAccountFromAddress: 2, perAccount: 6, perAddress: 20, windowMs: 60_000 },
        () => now,
      ),
    });
    // A stranger who knows the email, from one address: locked out of the account there only.
    for (let i = 0; i < 2; i++)
      expect((await logIn('ops@example.com', 'wrong password!', '10.6.6.6')).status).toBe(401);
    expect((await logIn('ops@example.com', PASSWORD, '10.6.6.6')).status).toBe(429);
    expect((await logIn('ops@example.com', PASSWORD, '10.0.0.2')).status).toBe(303);
    // Guesses spread over addresses, two from each: the sixth locks the account everywhere, until the window passes.
    now = 60_001;
    for (let i = 0; i < 6; i++)
      expect((await logIn('ops@example.com', 'wrong password!', `10.7.0.${i >> 1}`)).status).toBe(401);
    expect((await logIn('ops@example.com', PASSWORD, '10.0.0.2')).status).toBe(429);
    now = 120_002;
    expect((await logIn('ops@example.com', PASSWORD, '10.0.0.2')).status).toBe(303);
  });

  it('by default: 5 failures on an account from one address, 50 from anywhere, 20 from one address, 5 per device cookie', () => {
    expect(DEFAULT_LOGIN_LIMITS).toEqual({
      perAccountFromAddress: 5,
      perAccount: 50,
      perAddress: 20,
      perDevice: 5,
      windowMs: 900_000,
    });
  });
});

describe('over a socket', () => {
  it('listens where asked and answers the login page and a login from its own origin', async () => {
    const { startPanel } = await import('../server/panel/server.ts');
    const running = await startPanel({
      store: panel.store,
      host: '127.0.0.1',
      port: 0,
      publicUrl: 'http://127.0.0.1:8787',
      keyPrefix: 'svc',
    });
    try {
      expect((await fetch(`${running.url}/login`)).status).toBe(200);
      const login = await fetch(`${running.url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: running.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'ops@example.com', password: PASSWORD }),
      });
      expect(login.status).toBe(303);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      expect((await fetch(`${running.url}/`, { headers: { cookie } })).status).toBe(200);
    } finally {
      await running.close();
    }
  });
});
