// The API tab: the facility's keys, generating one (shown once), editing and revoking them; <panel-key-form>,
// <panel-revoke> and <panel-copy> enhance its forms in the browser.
import { html, type Html } from '../../http/pages/html.ts';
import { formatRate, MAX_LABEL_LENGTH } from '../../../shared/key-limits.ts';
import type { KeyInfo } from '../../store/keys.ts';
import type { Authenticated } from '../auth.ts';
import type { Texts } from '../i18n/i18n.ts';
import { DEFAULT_EMBED, embedSnippet } from '../../../shared/embed-options.ts';
import { csrfField, when } from './layout.ts';

const keyPath = (k: KeyInfo, action = '') => `/keys/${encodeURIComponent(k.id)}${action}`;
const rateOf = (k: KeyInfo) => (k.rate_per_s === null ? '' : formatRate(k.rate_per_s));

/** A field and the place <panel-key-form> writes its problem in (named by the field's aria-describedby then). */
function field(label: Html, id: string, input: Html): Html {
  return html`<label for="${id}">${label}</label>
${input}
<p id="${id}-error" class="field-error"></p>`;
}

/** The fields a key's limits are edited with, the same in the generate and the edit form. */
function limitFields({ t }: Texts, prefix: string, k?: KeyInfo): Html {
  const hint = (text: string) => html` <span class="muted">${text}</span>`;
  return html`${field(html`${t.label}`, `${prefix}-label`, html`<input id="${prefix}-label" name="label" maxlength="${MAX_LABEL_LENGTH}" value="${k?.label ?? ''}">`)}
${field(html`${t.origins}${hint(t.originsHint)}`, `${prefix}-origins`, html`<textarea id="${prefix}-origins" name="origins" rows="2">${k?.allowed_origins.join('\n') ?? ''}</textarea>`)}
${field(html`${t.rate}${hint(t.rateHint)}`, `${prefix}-rate`, html`<input id="${prefix}-rate" name="rate" value="${k ? rateOf(k) : ''}">`)}`;
}

/** The key's state as its row shows it: the revoke answer sends this text for <panel-revoke> to put in the row. */
export function keyState(tx: Texts, k: KeyInfo): string {
  return k.revoked_at ? `${tx.t.revoked} ${when(tx, k.revoked_at)}` : tx.t.active;
}

const revokeQuestion = ({ t }: Texts, k: KeyInfo) =>
  t.revokeQuestion(`${k.label || t.unlabelled} (...${k.hint})`, k.facility_id);

function keyRow(tx: Texts, who: Authenticated, k: KeyInfo): Html {
  const { t } = tx;
  const facts = html`<h3>${k.label || t.unlabelled} <span class="muted">...${k.hint}</span></h3>
<dl>
<dt>${t.state}</dt><dd data-key-state>${keyState(tx, k)}</dd>
<dt>${t.created}</dt><dd>${when(tx, k.created_at)}</dd>
<dt>${t.lastUsed}</dt><dd>${when(tx, k.last_used_at)}</dd>
<dt>${t.origins}</dt><dd>${k.allowed_origins.join(', ') || t.anyOrigin}</dd>
<dt>${t.rate}</dt><dd>${rateOf(k) || t.serverDefault}</dd>
</dl>`;
  if (k.revoked_at) return html`<li class="key">${facts}</li>`;
  return html`<li class="key"><panel-revoke action="${keyPath(k, '/revoke')}" csrf="${who.session.csrf}" question="${revokeQuestion(tx, k)}" confirm-label="${t.revokeTitle}" cancel-label="${t.cancel}" failed-label="${t.revokeFailed}" done-label="${t.keyRevoked}">
${facts}
<details><summary>${t.edit}</summary>
<panel-key-form><form method="post" action="${keyPath(k)}" class="stack">${csrfField(who)}${limitFields(tx, k.id, k)}<button type="submit">${t.save}</button></form></panel-key-form>
</details>
<form method="get" action="${keyPath(k, '/revoke')}" data-revoke><button type="submit" class="danger">${t.revoke}</button></form>
</panel-revoke></li>`;
}

export function apiBody(
  tx: Texts,
  who: Authenticated,
  facilityId: string,
  keys: readonly KeyInfo[],
  problem?: string,
): Html {
  const { t } = tx;
  return html`${problem ? html`<p class="problems" role="alert">${problem}</p>` : ''}
<panel-key-form><form method="post" action="/facilities/${encodeURIComponent(facilityId)}/keys" class="stack generate">
<h3>${t.generateTitle}</h3>
${csrfField(who)}${limitFields(tx, 'new')}
<button type="submit">${t.generate}</button>
</form></panel-key-form>
${keys.length === 0 ? html`<p>${t.noKeys}</p>` : html`<ul class="keys">${keys.map((k) => keyRow(tx, who, k))}</ul>`}`;
}

/** The one time the full key is shown: copy it now. */
export function newKeyBody({ t }: Texts, facilityId: string, key: string, info: KeyInfo, publicUrl: string): Html {
  return html`<p role="status"><strong>${t.copyNow}</strong> ${t.digestOnly}</p>
<label for="new-key">${t.keyLabel(info.label, info.hint)}</label>
<input id="new-key" readonly value="${key}" class="secret">
<panel-copy for="new-key" label="${t.copyKey}" done-label="${t.copied}"></panel-copy>
<label for="new-embed">${t.snippetWithKey}</label>
<textarea id="new-embed" readonly rows="3">${embedSnippet(DEFAULT_EMBED, { publicUrl, facilityId, keyText: key })}</textarea>
<panel-copy for="new-embed" label="${t.copy}" done-label="${t.copied}"></panel-copy>
<p><a href="/facilities/${encodeURIComponent(facilityId)}/api">${t.backToApi}</a></p>`;
}

export function revokeConfirmBody(tx: Texts, who: Authenticated, k: KeyInfo): Html {
  const { t } = tx;
  return html`<p>${revokeQuestion(tx, k)}</p>
<form method="post" action="${keyPath(k, '/revoke')}">${csrfField(who)}
<button type="submit" class="danger" autofocus>${t.revokeTitle}</button>
<a href="/facilities/${encodeURIComponent(k.facility_id)}/api">${t.cancel}</a>
</form>`;
}
