// The API tab: the facility's keys, generating one (shown once), editing and revoking them.
import { html, type Html } from '../../http/pages/html.ts';
import { formatRate } from '../../domain/key-limits.ts';
import type { KeyInfo } from '../../store/keys.ts';
import type { Authenticated } from '../auth.ts';
import type { Texts } from '../i18n/i18n.ts';
import { embedSnippet } from './facility.ts';
import { csrfField, when } from './layout.ts';

const keyPath = (k: KeyInfo, action = '') => `/keys/${encodeURIComponent(k.id)}${action}`;
const rateOf = (k: KeyInfo) => (k.rate_per_s === null ? '' : formatRate(k.rate_per_s));

/** The fields a key's limits are edited with, the same in the generate and the edit form. */
function limitFields({ t }: Texts, prefix: string, k?: KeyInfo): Html {
  return html`<label for="${prefix}-label">${t.label}</label>
<input id="${prefix}-label" name="label" maxlength="200" value="${k?.label ?? ''}">
<label for="${prefix}-origins">${t.origins} <span class="muted">${t.originsHint}</span></label>
<textarea id="${prefix}-origins" name="origins" rows="2">${k?.allowed_origins.join('\n') ?? ''}</textarea>
<label for="${prefix}-rate">${t.rate} <span class="muted">${t.rateHint}</span></label>
<input id="${prefix}-rate" name="rate" value="${k ? rateOf(k) : ''}">`;
}

function keyRow(tx: Texts, who: Authenticated, k: KeyInfo): Html {
  const { t } = tx;
  const state = k.revoked_at ? `${t.revoked} ${when(tx, k.revoked_at)}` : t.active;
  return html`<li class="key">
<h3>${k.label || t.unlabelled} <span class="muted">...${k.hint}</span></h3>
<dl>
<dt>${t.state}</dt><dd>${state}</dd>
<dt>${t.created}</dt><dd>${when(tx, k.created_at)}</dd>
<dt>${t.lastUsed}</dt><dd>${when(tx, k.last_used_at)}</dd>
<dt>${t.origins}</dt><dd>${k.allowed_origins.join(', ') || t.anyOrigin}</dd>
<dt>${t.rate}</dt><dd>${rateOf(k) || t.serverDefault}</dd>
</dl>
${
  k.revoked_at
    ? ''
    : html`<details><summary>${t.edit}</summary>
<form method="post" action="${keyPath(k)}" class="stack">${csrfField(who)}${limitFields(tx, k.id, k)}<button type="submit">${t.save}</button></form>
</details>
<form method="get" action="${keyPath(k, '/revoke')}"><button type="submit" class="danger">${t.revoke}</button></form>`
}
</li>`;
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
<form method="post" action="/facilities/${encodeURIComponent(facilityId)}/keys" class="stack generate">
<h3>${t.generateTitle}</h3>
${csrfField(who)}${limitFields(tx, 'new')}
<button type="submit">${t.generate}</button>
</form>
${keys.length === 0 ? html`<p>${t.noKeys}</p>` : html`<ul class="keys">${keys.map((k) => keyRow(tx, who, k))}</ul>`}`;
}

/** The one time the full key is shown: copy it now. */
export function newKeyBody({ t }: Texts, facilityId: string, key: string, info: KeyInfo, publicUrl: string): Html {
  return html`<p role="status"><strong>${t.copyNow}</strong> ${t.digestOnly}</p>
<label for="new-key">${t.keyLabel(info.label, info.hint)}</label>
<input id="new-key" readonly value="${key}" class="secret">
<button type="button" class="copy" data-copy="new-key" hidden>${t.copyKey}</button>
<label for="new-embed">${t.snippetWithKey}</label>
<textarea id="new-embed" readonly rows="3">${embedSnippet(publicUrl, key)}</textarea>
<p><a href="/facilities/${encodeURIComponent(facilityId)}/api">${t.backToApi}</a></p>`;
}

export function revokeConfirmBody({ t }: Texts, who: Authenticated, k: KeyInfo): Html {
  return html`<p>${t.revokeQuestion(`${k.label || t.unlabelled} (...${k.hint})`, k.facility_id)}</p>
<form method="post" action="${keyPath(k, '/revoke')}">${csrfField(who)}
<button type="submit" class="danger" autofocus>${t.revokeTitle}</button>
<a href="/facilities/${encodeURIComponent(k.facility_id)}/api">${t.cancel}</a>
</form>`;
}
