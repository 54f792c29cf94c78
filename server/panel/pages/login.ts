// The login form: email and password, and why the last try failed.
import { html } from '../../http/pages/html.ts';
import { panelPage } from './layout.ts';

export type LoginProblem = 'wrong' | 'limited' | undefined;

export function loginPage(problem?: LoginProblem, email = ''): string {
  const message =
    problem === 'wrong'
      ? 'Wrong email or password.'
      : problem === 'limited'
        ? 'Too many failed attempts. Try again later.'
        : '';
  return panelPage(
    'Log in',
    html`${message ? html`<p class="problems" role="alert">${message}</p>` : ''}
<form method="post" action="/login" class="stack">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>`,
  );
}
