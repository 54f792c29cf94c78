// Two-factor login in the panel: the code step of a login, and a code checked once (a TOTP code per time step, a
// recovery code ever), counted by the login limits as a password is.
import { emailKey } from '../domain/emails.ts';
import { codeKind, recoveryDigest, totpStepOf } from '../domain/totp.ts';
import { PENDING_LOGIN_MS, tokenDigest } from '../domain/sessions.ts';
import { switchOf } from '../switch-setting.ts';
import { accountAudit } from '../store/audit.ts';
import type { OperatorRow } from '../store/operators.ts';
import type { Store } from '../store/store.ts';
import { clearedPendingCookie, pendingTokenOf } from './auth.ts';
import type { ResolvedPanelOptions } from './context.ts';
import { formOf, htmlAnswer, redirect, type PanelRequest } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { deviceFor, refusal, startSession } from './login.ts';
import { codeLoginPage } from './pages/login.ts';
import { textsFor } from './i18n/i18n.ts';

/** PANEL_REQUIRE_2FA: on (1) requires two-factor login of every operator, off (0 or unset) leaves it to each. */
export function requireTwoFactorOf(env: Record<string, string | undefined>): boolean {
  return switchOf(env, 'PANEL_REQUIRE_2FA');
}

/** True once for a right code: a TOTP code of a step not used before, or an unused recovery code. */
export async function useCode(store: Store, operator: OperatorRow, code: string, nowMs: number): Promise<boolean> {
  const kind = codeKind(code);
  if (kind === 'recovery') return store.useRecoveryCode(operator.id, recoveryDigest(code));
  const step = kind === 'totp' && operator.totp_secret ? totpStepOf(operator.totp_secret, code, nowMs) : undefined;
  return step !== undefined && store.useTimeStep(operator.id, step);
}

/** The login this request's cookie is waiting on, while it is young enough, and its operator. */
async function pendingOf(opts: ResolvedPanelOptions, req: PanelRequest) {
  const token = pendingTokenOf(req, opts.origin);
  if (!token) return undefined;
  await opts.store.endStalePendingLogins(new Date(opts.now() - PENDING_LOGIN_MS));
  const pending = await opts.store.pendingLogin(tokenDigest(token));
  const operator = pending && (await opts.store.operator('id', pending.operator_id));
  return pending && operator ? { pending, operator } : undefined;
}

const startAgain = (opts: ResolvedPanelOptions) =>
  redirect('/login', { 'set-cookie': clearedPendingCookie(opts.origin) });

export async function codePage(opts: ResolvedPanelOptions, req: PanelRequest): Promise<Answer> {
  if (!(await pendingOf(opts, req))) return startAgain(opts);
  return htmlAnswer(codeLoginPage(textsFor(req.headers['accept-language'])));
}

export async function logInWithCode(opts: ResolvedPanelOptions, req: PanelRequest): Promise<Answer> {
  const tx = textsFor(req.headers['accept-language']);
  const found = await pendingOf(opts, req);
  if (!found) return startAgain(opts);
  const { pending, operator } = found;
  // Counted as the password was: on the device cookie of a browser the operator logged in from, else on the account.
  const account = emailKey(operator.email);
  const login = { account, address: req.remoteAddress, device: deviceFor(opts, req, operator) };
  const gate = await opts.limiter.begin(opts.store, login);
  if (!('attempt' in gate)) return refusal(gate, (problem) => codeLoginPage(tx, problem));
  if (!(await useCode(opts.store, operator, (formOf(req).get('code') ?? '').trim(), opts.now()))) {
    await opts.store.appendAudit([accountAudit('login.code_wrong', operator.email, operator.email)]);
    return htmlAnswer(codeLoginPage(tx, 'wrong'), 401);
  }
  await opts.store.endPendingLogin(pending.digest);
  await opts.limiter.succeeded(opts.store, login, { attempt: pending.attempt, byDevice: gate.byDevice });
  await opts.limiter.succeeded(opts.store, login, gate);
  return startSession(opts, operator, { endOthers: pending.end_others, twoFactor: true });
}
