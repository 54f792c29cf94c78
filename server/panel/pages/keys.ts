// The API tab: the facility's keys, generating one (shown once), editing and revoking them.
import { html, type Html } from '../../http/pages/html.ts';
import { formatRate } from '../../domain/key-limits.ts';
import type { KeyInfo } from '../../store/keys.ts';
import type { Authenticated } from '../auth.ts';
import { embedSnippet } from './facility.ts';
import { csrfField, when } from './layout.ts';

const keyPath = (k: KeyInfo, action = '') => `/keys/${encodeURIComponent(k.id)}${action}`;
const rateOf = (k: KeyInfo) => (k.rate_per_s === null ? '' : formatRate(k.rate_per_s));

/** The fields a key's limits are edited with, the same in the generate and the edit form. */
function limitFields(prefix: string, k?: KeyInfo): Html {
  return html`<label for="${prefix}-label">Label</label>
<input id="${prefix}-label" name="label" maxlength="200" value="${k?.label ?? ''}">
<label for="${prefix}-origins">Allowed origins <span class="muted">(one per line; empty: any)</span></label>
<textarea id="${prefix}-origins" name="origins" rows="2">${k?.allowed_origins.join('\n') ?? ''}</textarea>
<label for="${prefix}-rate">Rate <span class="muted">(such as 20/s or 600/min; empty: the server default)</span></label>
<input id="${prefix}-rate" name="rate" value="${k ? rateOf(k) : ''}">`;
}

function keyRow(who: Authenticated, k: KeyInfo): Html {
  const state = k.revoked_at ? html`revoked ${when(k.revoked_at)}` : html`active`;
  return html`<li class="key">
<h3>${k.label || 'Unlabelled key'} <span class="muted">...${k.hint}</span></h3>
<dl>
<dt>State</dt><dd>${state}</dd>
<dt>Created</dt><dd>${when(k.created_at)}</dd>
<dt>Last used</dt><dd>${when(k.last_used_at)}</dd>
<dt>Allowed origins</dt><dd>${k.allowed_origins.join(', ') || 'any'}</dd>
<dt>Rate</dt><dd>${rateOf(k) || 'server default'}</dd>
</dl>
${
  k.revoked_at
    ? ''
    : html`<details><summary>Edit</summary>
<form method="post" action="${keyPath(k)}" class="stack">${csrfField(who)}${limitFields(k.id, k)}<button type="submit">Save</button></form>
</details>
<form method="get" action="${keyPath(k, '/revoke')}"><button type="submit" class="danger">Revoke</button></form>`
}
</li>`;
}

export function apiBody(who: Authenticated, facilityId: string, keys: readonly KeyInfo[], problem?: string): Html {
  return html`${problem ? html`<p class="problems" role="alert">${problem}</p>` : ''}
<form method="post" action="/facilities/${encodeURIComponent(facilityId)}/keys" class="stack generate">
<h3>Generate a key</h3>
${csrfField(who)}${limitFields('new')}
<button type="submit">Generate key</button>
</form>
${keys.length === 0 ? html`<p>No keys yet.</p>` : html`<ul class="keys">${keys.map((k) => keyRow(who, k))}</ul>`}`;
}

/** The one time the full key is shown: copy it now. */
export function newKeyBody(facilityId: string, key: string, info: KeyInfo, publicUrl: string): Html {
  return html`<p role="status"><strong>Copy this key now: it will not be shown again.</strong> Only its SHA-256 digest
is stored.</p>
<label for="new-key">Key ${info.label ? html`for ${info.label}` : ''} (ends in ${info.hint})</label>
<input id="new-key" readonly value="${key}" class="secret">
<button type="button" class="copy" data-copy="new-key" hidden>Copy key</button>
<label for="new-embed">Embed snippet with this key</label>
<textarea id="new-embed" readonly rows="3">${embedSnippet(publicUrl, key)}</textarea>
<p><a href="/facilities/${encodeURIComponent(facilityId)}/api">Back to the API tab</a></p>`;
}

export function revokeConfirmBody(who: Authenticated, k: KeyInfo): Html {
  return html`<p>Revoke the key <strong>${k.label || 'Unlabelled key'}</strong> (...${k.hint}) of ${k.facility_id}?
The API refuses it from its next request; this cannot be undone.</p>
<form method="post" action="${keyPath(k, '/revoke')}">${csrfField(who)}
<button type="submit" class="danger" autofocus>Revoke key</button>
<a href="/facilities/${encodeURIComponent(k.facility_id)}/api">Cancel</a>
</form>`;
}
