// Logging in: limited per account and per address, or per device cookie for a browser the operator logged in from; as
// slow for an unknown account as for a known one, and within the panel's cap on password checks; with two-factor login
// on, the right password gives a pending login that the code step (two-factor.ts) turns into a session.
import { deviceOf, newDeviceCookie } from '../domain/device-cookies.ts';
import type { LoginGate, LoginTry } from '../domain/login-limits.ts';
import { newSession, randomToken, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, tokenDigest } from '../domain/sessions.ts';
import { accountAudit } from '../store/audit.ts';
import { emailKey, hiddenCharacterIn, normalEmail } from '../domain/emails.ts';
import type { OperatorRow } from '../store/operators.ts';
import { deviceCookie, deviceCookieOf, pendingCookie, sessionCookie } from './auth.ts';
import type { ResolvedPanelOptions } from './context.ts';
import { formOf, htmlAnswer, redirect, setCookies, type PanelRequest } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { loginPage, type LoginProblem } from './pages/login.ts';
import { BUSY_RETRY_AFTER_S } from './password-checks.ts';
import { textsFor } from './i18n/i18n.ts';

/** Whether `typed` is an email address any account may have. */
function isEmail(typed: string): boolean {
  try {
    return Boolean(normalEmail(typed));
  } catch {
    return false;
  }
}

/** The device a request's device cookie names, when the cookie is valid for `operator`. */
export const deviceFor = (opts: ResolvedPanelOptions, req: PanelRequest, operator: OperatorRow | undefined) =>
  operator && deviceOf(deviceCookieOf(req, opts.origin), operator, opts.now());

/** The answer to a try turned away before its password or code was checked: by the limits (429), or busy (503). */
export function refusal(gate: Exclude<LoginGate, { attempt: number }>, page: (p: LoginProblem) => string): Answer {
  return 'busy' in gate
    ? htmlAnswer(page('busy'), 503, { 'retry-after': String(BUSY_RETRY_AFTER_S) })
    : htmlAnswer(page('limited'), 429, { 'retry-after': String(gate.retryAfter) });
}

export async function logIn(opts: ResolvedPanelOptions, req: PanelRequest): Promise<Answer> {
  const tx = textsFor(req.headers['accept-language']);
  const form = formOf(req);
  const typed = form.get('email') ?? '';
  // No account's email holds a character no one sees: the operator is told to type it again, nothing is checked.
  if (hiddenCharacterIn(emailKey(typed))) return htmlAnswer(loginPage(tx, 'hidden', ''), 400);
  const password = form.get('password') ?? '';
  const endOthers = form.get('end_others') === 'on';
  const operator = isEmail(typed) ? await opts.store.operator('email', typed) : undefined;
  // Counted under the normal form, however it was typed.
  const login = {
    account: emailKey(typed).slice(0, 254),
    address: req.remoteAddress,
    device: deviceFor(opts, req, operator),
  };
  const { gate, ok } = await tryPassword(opts, login, password, operator?.password_hash);
  if (!('attempt' in gate)) return refusal(gate, (problem) => loginPage(tx, problem, typed));
  if (!ok || !operator) return htmlAnswer(loginPage(tx, 'wrong', typed), 401);
  if (operator.totp_enabled_at) {
    // The try stays counted until the code is right: a password alone never clears the account's count.
    const token = randomToken();
    const created_at = new Date(opts.now()).toISOString();
    const row = { digest: tokenDigest(token), operator_id: operator.id, attempt: gate.attempt, end_others: endOthers };
    await opts.store.createPendingLogin({ ...row, created_at });
    return redirect('/login/code', { 'set-cookie': pendingCookie(token, opts.origin) });
  }
  await opts.limiter.succeeded(opts.store, login, gate);
  return startSession(opts, operator, { endOthers, twoFactor: false });
}

/**
 * The try counted, then its password checked. Counted first: tries sent at once, to one panel or several, cannot all
 * get through. Checked only with a free slot of the panel's cap, unless its device cookie exempts it (its own limit
 * bounds those); a try turned away for want of one is not counted.
 */
async function tryPassword(opts: ResolvedPanelOptions, login: LoginTry, password: string, stored: string | undefined) {
  const check = opts.passwordChecks.check();
  try {
    const admit = { free: () => check.free(), take: (byDevice: boolean) => check.reserve() || byDevice };
    const gate = await opts.limiter.begin(opts.store, login, admit);
    return { gate, ok: 'attempt' in gate && (await check.matches(password, stored)) };
  } finally {
    check.release();
  }
}

/**
 * The session a complete login makes, and a new device cookie for the browser: the operator's others ended first when
 * asked, audited either way.
 */
export async function startSession(
  opts: ResolvedPanelOptions,
  operator: OperatorRow,
  how: { endOthers: boolean; twoFactor: boolean },
): Promise<Answer> {
  const now = new Date();
  // Sessions nobody came back to are ended here, at the one moment a new one is made.
  await opts.store.endExpiredSessions(
    new Date(now.getTime() - SESSION_IDLE_MS),
    new Date(now.getTime() - SESSION_ABSOLUTE_MS),
  );
  const { token, row } = newSession(operator.id, now, { twoFactor: how.twoFactor });
  await opts.store.createSession(row);
  if (how.endOthers) await opts.store.endSessionsOf(operator.id, row.digest);
  const detail = { two_factor: how.twoFactor, ended_others: how.endOthers };
  const { email } = operator;
  // Ending the others is the account page's "log out everywhere else" too: the log names it the same way.
  await opts.store.appendAudit([
    accountAudit('login', email, email, detail),
    ...(how.endOthers ? [accountAudit('logout.everywhere', email, email)] : []),
  ]);
  // With two-factor required and not set up, enrolment is the one page the operator may reach, and the login is not
  // complete: no device cookie yet (it exempts the browser from the lockout counts), the next login with a code gives it.
  const session = sessionCookie(token, opts.origin);
  if (opts.require2fa && !operator.totp_enabled_at) return redirect('/account/2fa', { 'set-cookie': session });
  const device = newDeviceCookie(operator, opts.now());
  return redirect('/', setCookies(session, deviceCookie(device, opts.origin)));
}
