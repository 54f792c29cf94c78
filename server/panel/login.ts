// Logging in: limited per account and per address, as slow for an unknown account as for a known one.
import { decoyHash, verifyPassword } from '../domain/passwords.ts';
import { newSession, SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../domain/sessions.ts';
import { normalEmail } from '../store/operators.ts';
import { sessionCookie } from './auth.ts';
import type { ResolvedPanelOptions } from './handler.ts';
import { formOf, htmlAnswer, redirect, type PanelRequest, type PanelResponse } from './http.ts';
import { loginPage } from './pages/login.ts';
import { textsFor } from './i18n/i18n.ts';

function emailOf(value: string): string | undefined {
  try {
    return normalEmail(value);
  } catch {
    return undefined;
  }
}

export async function logIn(opts: ResolvedPanelOptions, req: PanelRequest): Promise<PanelResponse> {
  const tx = textsFor(req.headers['accept-language']);
  const form = formOf(req);
  const typed = form.get('email') ?? '';
  const email = emailOf(typed) ?? typed.slice(0, 254);
  const password = form.get('password') ?? '';
  // Counted before the password is checked: tries sent at once, to one panel or several, cannot all get through.
  const gate = await opts.limiter.begin(opts.store, email, req.address);
  if ('retryAfter' in gate)
    return htmlAnswer(loginPage(tx, 'limited', typed), 429, { 'retry-after': String(gate.retryAfter) });
  const operator = emailOf(typed) ? await opts.store.operator('email', email) : undefined;
  const ok = operator
    ? await verifyPassword(password, operator.password_hash)
    : await verifyPassword(password, await decoyHash()).then(() => false);
  if (!ok || !operator) return htmlAnswer(loginPage(tx, 'wrong', typed), 401);
  await opts.limiter.succeeded(opts.store, email, gate.attempt);
  const now = new Date();
  // Sessions nobody came back to are ended here, at the one moment a new one is made.
  await opts.store.endExpiredSessions(
    new Date(now.getTime() - SESSION_IDLE_MS),
    new Date(now.getTime() - SESSION_ABSOLUTE_MS),
  );
  const { token, row } = newSession(operator.id, now);
  await opts.store.createSession(row);
  return redirect('/', { 'set-cookie': sessionCookie(token, opts.origin) });
}
