// The operator's own account (role, two-factor, "log out everywhere else") and, for owners, every account's role.
import { html, type Html } from '../../http/pages/html.ts';
import { ROLES } from '../../domain/roles.ts';
import type { OperatorInfo } from '../../store/operators.ts';
import type { Authenticated } from '../auth.ts';
import { accountTexts } from '../i18n/accounts.ts';
import type { Texts } from '../i18n/i18n.ts';
import { csrfField, when } from './layout.ts';

export function accountBody(tx: Texts, who: Authenticated, done?: string): Html {
  const a = accountTexts(tx.lang);
  const { email, role, totp_enabled_at } = who.operator;
  return html`${done ? html`<p role="status">${done}</p>` : ''}
<dl>
<dt>${a.email}</dt><dd>${email}</dd>
<dt>${a.role}</dt><dd>${a.roles[role]}</dd>
<dt>${a.twoFactor}</dt><dd>${totp_enabled_at ? a.twoFactorSince(when(tx, totp_enabled_at)) : html`${a.off} <a href="/account/2fa">${a.setUp2fa}</a>`}</dd>
</dl>
<form method="post" action="/account/sessions">${csrfField(who)}<button type="submit">${a.logOutEverywhere}</button></form>
${role === 'owner' ? html`<p><a href="/operators">${a.operators}</a></p>` : ''}`;
}

export function operatorsBody(
  tx: Texts,
  who: Authenticated,
  operators: readonly OperatorInfo[],
  problem?: string,
): Html {
  const a = accountTexts(tx.lang);
  const row = (
    o: OperatorInfo,
    i: number,
  ) => html`<tr><td>${o.email}</td><td>${o.two_factor_since ? a.twoFactorSince(when(tx, o.two_factor_since)) : a.off}</td><td>${when(tx, o.created_at)}</td>
<td><form method="post" action="/operators/role">${csrfField(who)}<input type="hidden" name="email" value="${o.email}">
<label for="role-${i}" class="visually-hidden">${a.role} ${o.email}</label>
<select id="role-${i}" name="role">${ROLES.map((r) => html`<option value="${r}"${r === o.role ? html` selected` : ''}>${a.roles[r]}</option>`)}</select>
<button type="submit">${a.changeRole}</button></form></td></tr>`;
  return html`${problem ? html`<p class="problems" role="alert">${problem}</p>` : ''}
<div class="scroll" role="region" aria-label="${a.operators}" tabindex="0">
<table>
<thead><tr><th scope="col">${a.email}</th><th scope="col">${a.twoFactor}</th><th scope="col">${a.created}</th><th scope="col">${a.role}</th></tr></thead>
<tbody>${operators.map(row)}</tbody>
</table>
</div>`;
}
