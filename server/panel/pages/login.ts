// The login forms: email and password (and whether to end the operator's other sessions), then the two-factor code;
// each says why the last try failed.
import { html } from '../../http/pages/html.ts';
import { accountTexts } from '../i18n/accounts.ts';
import type { Texts } from '../i18n/i18n.ts';
import { panelPage } from './layout.ts';

/** `hidden`: the email holds a character no one sees (a zero-width space, say), which no account's email has. */
export type LoginProblem = 'wrong' | 'hidden' | 'limited' | 'busy' | undefined;

/** Why a try was turned away before its password or code was checked. */
const refusalText = (tx: Texts, problem: 'hidden' | 'limited' | 'busy') =>
  problem === 'busy' ? tx.t.busyLogin : problem === 'hidden' ? tx.t.hiddenInEmail : tx.t.limitedLogin;

const problemLine = (message: string) => (message ? html`<p class="problems" role="alert">${message}</p>` : '');

export function loginPage(tx: Texts, problem?: LoginProblem, email = ''): string {
  const { t } = tx;
  const message = problem === 'wrong' ? t.wrongLogin : problem ? refusalText(tx, problem) : '';
  return panelPage(
    tx,
    t.logIn,
    html`${problemLine(message)}
<form method="post" action="/login" class="stack">
<label for="email">${t.email}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<label><input name="end_others" type="checkbox"> ${accountTexts(tx.lang).endOthers}</label>
<button type="submit">${t.logIn}</button>
</form>`,
  );
}

/** The second step: a code from the authenticator app, or a recovery code. */
export function codeLoginPage(tx: Texts, problem?: LoginProblem): string {
  const a = accountTexts(tx.lang);
  const message = problem === 'wrong' ? a.wrongCode : problem ? refusalText(tx, problem) : '';
  return panelPage(
    tx,
    a.codeTitle,
    html`${problemLine(message)}
<form method="post" action="/login/code" class="stack">
<label for="code">${a.codeLabel}</label>
<input id="code" name="code" autocomplete="one-time-code" inputmode="text" autocapitalize="none" spellcheck="false" maxlength="16" required autofocus>
<button type="submit">${a.verify}</button>
</form>`,
  );
}
