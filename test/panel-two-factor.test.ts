// Two-factor login in the panel, on a clock moved by whole time steps: enrolment (QR code, otpauth:// URI, a first
// code, recovery codes shown once), the login's two steps, a code refused the second time, wrong codes limited as wrong
// passwords are, recovery codes used once, a password change cancelling a login half done, PANEL_REQUIRE_2FA forcing
// enrolment, and reset-2fa from the CLI.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/program.ts';
import { hashPassword } from '../server/domain/passwords.ts';
import { totpCodeAt } from '../server/domain/totp.ts';
import type { PanelOptions } from '../server/panel/handler.ts';
import { LoginLimiter } from '../server/panel/login-limits.ts';
import { requireTwoFactorOf } from '../server/panel/two-factor.ts';
import { CLI_ACTOR } from '../server/store/audit.ts';
import type { Store } from '../server/store/store.ts';
import { bufferIo } from './helpers/fixture.ts';
import { cookieOf, sessionAs, stepClock } from './helpers/panel-accounts.ts';
import { OPERATOR, PASSWORD, panelClient, panelOver, panelStore, type PanelHandle } from './helpers/panel.ts';

let store: Store;
let file: string;
let handle: PanelHandle;
let cleanup: () => Promise<void>;
let clock: ReturnType<typeof stepClock>;
const client = panelClient(() => handle);
const { request } = client;

const panel = (extra: Partial<PanelOptions> = {}) => panelOver(store, { now: clock.now, ...extra });

beforeEach(async () => {
  ({ store, file, cleanup } = await panelStore());
  clock = stepClock();
  handle = panel();
});
afterEach(() => cleanup());

const actions = async () => (await store.listAudit()).map((r) => r.action);

/** Enrols OPERATOR through the panel; answers the recovery codes and the secret. */
async function enrol() {
  const s = await sessionAs(client, OPERATOR);
  const page = String((await s.as('GET', '/account/2fa')).body);
  const secret = (await store.operator('email', OPERATOR))!.totp_secret!;
  const done = await s.as('POST', '/account/2fa', { code: totpCodeAt(secret, clock.now()) });
  expect(done.status).toBe(200);
  const codes = [...String(done.body).matchAll(/<code>([a-z2-9]{5}-[a-z2-9]{5})<\/code>/g)].map((m) => m[1]!);
  return { page, secret, codes, s };
}

/** The password step: the answer, and the pending login's cookie. */
async function passwordStep(form: Record<string, string> = {}) {
  const answer = await request('POST', '/login', { form: { email: OPERATOR, password: PASSWORD, ...form } });
  return { answer, pending: answer.headers['set-cookie'] ? cookieOf(answer) : '' };
}

const codeStep = (pending: string, code: string) =>
  request('POST', '/login/code', { form: { code }, headers: { cookie: pending } });

describe('enrolment', () => {
  it('shows a local QR code and the otpauth:// URI, is confirmed by a first code, and shows ten recovery codes once', async () => {
    const s = await sessionAs(client, OPERATOR);
    const first = String((await s.as('GET', '/account/2fa')).body);
    expect(first).toMatch(/<img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt="[^"]+"/);
    expect(first).toContain('otpauth://totp/storage-listings:ops%40example.com?issuer=storage-listings&amp;secret=');
    expect(first).toMatch(/<input id="code" name="code" autocomplete="one-time-code"/);
    // No recovery code exists before enrolment ends: the field asks for the app's code alone.
    expect(/<label for="code">([^<]*)<\/label>/.exec(first)?.[1]).toBe('Code from your authenticator app');
    const secret = (await store.operator('email', OPERATOR))!.totp_secret!;
    expect(first).toContain(secret);

    const wrong = await s.as('POST', '/account/2fa', {
      code: '000000' === totpCodeAt(secret, clock.now()) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(400);
    expect((await store.operator('email', OPERATOR))!.totp_enabled_at).toBeNull();

    const done = await s.as('POST', '/account/2fa', { code: totpCodeAt(secret, clock.now()) });
    const codes = [...String(done.body).matchAll(/<code>([a-z2-9]{5}-[a-z2-9]{5})<\/code>/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect((await store.operator('email', OPERATOR))!.totp_enabled_at).not.toBeNull();
    expect(await actions()).toContain('2fa.enrol');

    // Never shown again: the page now says it is on, with neither the key nor a code.
    const again = String((await s.as('GET', '/account/2fa')).body);
    expect(again).not.toContain(secret);
    expect(again).not.toContain(codes[0]);
    // Stored as digests only.
    const stored = (await store.operator('email', OPERATOR))!.recovery_codes;
    expect(JSON.parse(stored)).toHaveLength(10);
    expect(JSON.parse(stored).every((d: string) => /^[0-9a-f]{64}$/.test(d))).toBe(true);
    for (const c of codes) expect(stored).not.toContain(c);
  });
});

describe('logging in with a code', () => {
  it('takes the password, then the code, and only then makes a session; a code is refused the second time', async () => {
    const { secret } = await enrol();
    clock.step();
    const { answer, pending } = await passwordStep();
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/login/code');
    expect(pending).toMatch(/^listings_panel_pending=/);
    // The pending login is no session.
    expect((await request('GET', '/', { headers: { cookie: pending } })).headers.location).toBe('/login');
    const page = String((await request('GET', '/login/code', { headers: { cookie: pending } })).body);
    expect(page).toMatch(/name="code" autocomplete="one-time-code"/);

    const code = totpCodeAt(secret, clock.now());
    const ok = await codeStep(pending, code);
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/');
    const cookie = cookieOf(ok);
    expect((await request('GET', '/', { headers: { cookie } })).status).toBe(200);
    // The pending login is used up.
    expect((await codeStep(pending, code)).headers.location).toBe('/login');

    // The same code again, within its window, from a new password step: refused.
    const replay = await passwordStep();
    expect((await codeStep(replay.pending, code)).status).toBe(401);
    // The next step's code passes.
    clock.step();
    expect((await codeStep(replay.pending, totpCodeAt(secret, clock.now()))).status).toBe(303);
    expect(await actions()).toEqual(expect.arrayContaining(['login', 'login.code_wrong']));
  });

  it('refuses the enrolment code for a login in the same time step', async () => {
    const { secret } = await enrol();
    const { pending } = await passwordStep();
    expect((await codeStep(pending, totpCodeAt(secret, clock.now()))).status).toBe(401);
  });

  it('counts wrong codes as wrong passwords: five on the account, then 429 even for the right code', async () => {
    const { secret } = await enrol();
    clock.step();
    const { pending } = await passwordStep();
    // The password step's try stays counted until a code is right: with it, four wrong codes reach the limit of 5.
    for (let i = 0; i < 4; i++) expect((await codeStep(pending, '00000' + String(i))).status).toBe(401);
    const limited = await codeStep(pending, totpCodeAt(secret, clock.now()));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await passwordStep()).answer.status).toBe(429);
  });

  it('sets the device cookie only once the code is right, and takes it at both steps while strangers hold the account locked', async () => {
    const { secret } = await enrol();
    handle = panel({ limiter: new LoginLimiter({ perAccount: 3, perAddress: 100, windowMs: 60_000 }, clock.now) });
    clock.step();
    const { answer, pending } = await passwordStep();
    expect(answer.headers['set-cookie']).not.toContain('listings_panel_device=');
    const done = await codeStep(pending, totpCodeAt(secret, clock.now()));
    const device = done.headers['set-cookie']!.split('\n').map((c) => c.split(';')[0]!)[1]!;
    expect(device).toMatch(/^listings_panel_device=/);

    for (let i = 0; i < 3; i++) {
      const wrong = { email: OPERATOR, password: 'wrong password!' };
      expect((await request('POST', '/login', { form: wrong, remoteAddress: `10.6.6.${i}` })).status).toBe(401);
    }
    const form = { email: OPERATOR, password: PASSWORD };
    expect((await request('POST', '/login', { form, remoteAddress: '10.0.0.9' })).status).toBe(429);
    const own = await request('POST', '/login', { form, remoteAddress: '10.0.0.9', headers: { cookie: device } });
    expect(own.headers.location).toBe('/login/code');
    const ownPending = cookieOf(own);
    clock.step();
    const code = { code: totpCodeAt(secret, clock.now()) };
    // The code step counts as the password step did: without the device cookie, on the locked account.
    const bare = await request('POST', '/login/code', { form: code, headers: { cookie: ownPending } });
    expect(bare.status).toBe(429);
    const both = `${ownPending}; ${device}`;
    const ok = await request('POST', '/login/code', {
      form: code,
      headers: { cookie: both },
      remoteAddress: '10.0.0.9',
    });
    expect(ok.status).toBe(303);
    expect(ok.headers.location).toBe('/');
  });

  it('takes each recovery code once', async () => {
    const { codes } = await enrol();
    const first = await passwordStep();
    expect((await codeStep(first.pending, codes[0]!.toUpperCase())).status).toBe(303);
    const second = await passwordStep();
    expect((await codeStep(second.pending, codes[0]!)).status).toBe(401);
    expect((await codeStep(second.pending, codes[1]!)).status).toBe(303);
    const used = (await store.listAudit({ action: '2fa.recovery_used' })).map((r) => r.detail.left);
    expect(used).toEqual([8, 9]);
  });

  it('starts again at the password when the password was changed after the first step, code or not', async () => {
    const { secret, codes } = await enrol();
    clock.step();
    const { pending } = await passwordStep();
    await store.setOperatorPassword(OPERATOR, await hashPassword('another long password 42'));
    expect((await codeStep(pending, codes[0]!)).headers.location).toBe('/login');
    expect((await codeStep(pending, totpCodeAt(secret, clock.now()))).headers.location).toBe('/login');
  });

  it('starts again at the password once the pending login is five minutes old', async () => {
    const { secret } = await enrol();
    clock.step(10);
    const { pending } = await passwordStep();
    clock.step(11);
    expect((await codeStep(pending, totpCodeAt(secret, clock.now()))).headers.location).toBe('/login');
  });
});

describe('PANEL_REQUIRE_2FA', () => {
  it('reads 1 as required, 0 or nothing as optional, and refuses anything else naming the setting', () => {
    expect(requireTwoFactorOf({ PANEL_REQUIRE_2FA: '1' })).toBe(true);
    expect(requireTwoFactorOf({ PANEL_REQUIRE_2FA: '0' })).toBe(false);
    expect(requireTwoFactorOf({})).toBe(false);
    expect(() => requireTwoFactorOf({ PANEL_REQUIRE_2FA: 'yes' })).toThrow(/PANEL_REQUIRE_2FA=yes/);
  });

  it('takes an operator without two-factor to enrolment right after the password, and nowhere else until enrolled', async () => {
    handle = panel({ require2fa: true });
    const login = await request('POST', '/login', { form: { email: OPERATOR, password: PASSWORD } });
    expect(login.headers.location).toBe('/account/2fa');
    // Not a complete login yet: a session for enrolment, and no device cookie (which exempts from the lockout counts).
    const cookies = login.headers['set-cookie']!.split('\n').map((c) => c.split('=')[0]);
    expect(cookies).toEqual(['listings_panel']);
    const s = await sessionAs(client, OPERATOR, { page: '/account/2fa' });
    for (const path of ['/', '/audit', '/facilities/wro-1/api', '/account'])
      expect((await s.as('GET', path)).headers.location).toBe('/account/2fa');
    const before = (await store.listKeys('wro-1')).length;
    expect((await s.as('POST', '/facilities/wro-1/keys', { label: 'x' })).status).toBe(403);
    expect(await store.listKeys('wro-1')).toHaveLength(before);

    const secret = (await store.operator('email', OPERATOR))!.totp_secret!;
    expect((await s.as('POST', '/account/2fa', { code: totpCodeAt(secret, clock.now()) })).status).toBe(200);
    expect((await s.as('GET', '/')).status).toBe(200);
  });
});

describe('listings operators reset-2fa', () => {
  it('turns two-factor off from the CLI, ends the sessions, and is audited as the CLI', async () => {
    const { s } = await enrol();
    expect(await runCli(['operators', 'reset-2fa', OPERATOR], bufferIo({ LISTINGS_DB: file }))).toBe(0);
    expect(await runCli(['operators', 'reset-2fa', 'nobody@example.com'], bufferIo({ LISTINGS_DB: file }))).toBe(1);
    expect((await s.as('GET', '/')).headers.location).toBe('/login');
    const row = await store.operator('email', OPERATOR);
    expect([row!.totp_secret, row!.totp_enabled_at, row!.recovery_codes]).toEqual([null, null, '[]']);
    expect((await store.listAudit({ action: '2fa.reset' }))[0]).toMatchObject({ actor: CLI_ACTOR });
    // The next login needs the password alone.
    expect((await passwordStep()).answer.headers.location).toBe('/');
  });
});
