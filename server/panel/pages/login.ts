// The login form: email and password, and why the last try failed.
import { html } from '../../http/pages/html.ts';
import type { Texts } from '../i18n/i18n.ts';
import { panelPage } from './layout.ts';

export type LoginProblem = 'wrong' | 'limited' | undefined;

export function loginPage(tx: Texts, problem?: LoginProblem, email = ''): string {
  const { t } = tx;
  const message = problem === 'wrong' ? t.wrongLogin : problem === 'limited' ? t.limitedLogin : '';
  return panelPage(
    tx,
    t.logIn,
    html`${message ? html`<p class="problems" role="alert">${message}</p>` : ''}
<form method="post" action="/login" class="stack">
<label for="email">${t.email}</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<label for="password">${t.password}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">${t.logIn}</button>
</form>`,
  );
}
