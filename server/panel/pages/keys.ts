// The API tab: the facility's keys, generating one (shown once), editing and revoking them; <panel-key-form>,
// <panel-revoke> and <panel-copy> enhance its forms in the browser.
import { html, type Html } from '../../http/pages/html.ts';
import { formatRate, MAX_LABEL_LENGTH, type KeyFormFields } from '../../../shared/key-limits.ts';
import { unitsFor } from '../../../shared/text-length.ts';
import { LAST_USE_INTERVAL_MS } from '../../http/api/last-use.ts';
import type { KeyInfo } from '../../store/keys.ts';
import type { Authenticated } from '../auth.ts';
import type { Texts } from '../i18n/i18n.ts';
import { DEFAULT_EMBED, embedSnippet } from '../../../shared/embed-options.ts';
import { canManage, csrfField, when } from './layout.ts';
import { webhookTexts } from '../i18n/webhooks.ts';
import { webhooksPath } from './webhooks.ts';

export const keyPath = (k: KeyInfo, action = '') => `/keys/${encodeURIComponent(k.id)}${action}`;
const rateOf = (k: KeyInfo) => (k.rate_per_s === null ? '' : formatRate(k.rate_per_s));

/** The generate form's prefix of its fields' ids; an edit form's is its key's id. */
const NEW_KEY = 'new';

/** A field and the place <panel-key-form> writes its problem in (named by the field's aria-describedby then). */
function field(label: Html, id: string, input: Html): Html {
  return html`<label for="${id}">${label}</label>
${input}
<p id="${id}-error" class="field-error"></p>`;
}

/** A key form the server refused: why, and every value as it was typed, to show the form again with them. */
export interface RefusedKeyForm {
  /** The edited key; absent: the generate form. */
  keyId?: string;
  problem: string;
  fields: Required<KeyFormFields>;
}

const EMPTY_FORM: Required<KeyFormFields> = { label: '', ref: '', origins: '', rate: '', burst: '' };

/** A stored key's values as its edit form shows them. */
const fieldsOf = (k: KeyInfo): Required<KeyFormFields> => ({
  label: k.label,
  ref: k.ref,
  origins: k.allowed_origins.join('\n'),
  rate: rateOf(k),
  burst: k.burst === null ? '' : String(k.burst),
});

/**
 * The fields a key's limits are edited with, the same in the generate form (`prefix` "new") and a key's edit form,
 * where an empty ref keeps the key's rather than making one from the label.
 */
function limitFields({ t }: Texts, prefix: string, v: Required<KeyFormFields>): Html {
  const hint = (text: string) => html` <span class="muted">${text}</span>`;
  const refHint = prefix === NEW_KEY ? t.refHint : t.refEditHint;
  return html`${field(html`${t.label}`, `${prefix}-label`, html`<input id="${prefix}-label" name="label" maxlength="${unitsFor(MAX_LABEL_LENGTH)}" value="${v.label}">`)}
${field(html`${t.ref}${hint(refHint)}`, `${prefix}-ref`, html`<input id="${prefix}-ref" name="ref" maxlength="40" value="${v.ref}">`)}
${field(html`${t.origins}${hint(t.originsHint)}`, `${prefix}-origins`, html`<textarea id="${prefix}-origins" name="origins" rows="2">${v.origins}</textarea>`)}
${field(html`${t.rate}${hint(t.rateHint)}`, `${prefix}-rate`, html`<input id="${prefix}-rate" name="rate" value="${v.rate}">`)}
${field(html`${t.burst}${hint(t.burstHint)}`, `${prefix}-burst`, html`<input id="${prefix}-burst" name="burst" inputmode="numeric" value="${v.burst}">`)}`;
}

/** The key's state as its row shows it: the revoke answer sends this text for <panel-revoke> to put in the row. */
export function keyState(tx: Texts, k: KeyInfo): string {
  return k.revoked_at ? `${tx.t.revoked} ${when(tx, k.revoked_at)}` : tx.t.active;
}

/**
 * Last use as the API records it, in batches (server/http/api/last-use.ts, every 30 s): a use in the last minute is
 * "within the last minute", and a key with none recorded says that a use shows up only once its batch is written.
 */
export function lastUsedText(tx: Texts, iso: string | null, now = Date.now()): string {
  if (iso === null) return tx.t.noUseRecorded(LAST_USE_INTERVAL_MS / 1000);
  return now - Date.parse(iso) < 60_000 ? tx.t.withinMinute : when(tx, iso);
}

/** The key's rate and burst as the server applies them: its own, the burst its rate gives, or the server's default. */
export function limitText({ t }: Texts, k: KeyInfo): string {
  if (k.rate_per_s === null && k.burst === null) return t.serverDefault;
  const rate = k.rate_per_s === null ? t.serverDefault : formatRate(k.rate_per_s);
  const burst = k.burst ?? (k.rate_per_s === null ? null : Math.ceil(k.rate_per_s * 5));
  return `${rate}, ${t.burstOf(burst === null ? t.serverDefault : String(burst), k.burst === null)}`;
}

const revokeQuestion = ({ t }: Texts, k: KeyInfo) =>
  t.revokeQuestion(`${k.label || t.unlabelled} (...${k.hint})`, k.facility_id);

function keyRow(tx: Texts, who: Authenticated, k: KeyInfo, refused?: RefusedKeyForm): Html {
  const { t } = tx;
  const cells = html`<th scope="row" data-key-name>${k.label || t.unlabelled} <span class="muted">…${k.hint}</span> <span class="muted">${t.ref}: <code>${k.ref}</code></span> <a href="${keyPath(k, '/referrals')}">${t.referrals}<span class="visually-hidden"> ${k.label || t.unlabelled} …${k.hint}</span></a></th>
<td data-key-state class="when">${keyState(tx, k)}</td>
<td class="when">${when(tx, k.created_at)}</td>
<td${k.last_used_at === null ? '' : html` class="when"`}>${lastUsedText(tx, k.last_used_at)}</td>
<td>${k.allowed_origins.join(', ') || t.anyOrigin}</td>
<td>${limitText(tx, k)}</td>
<td><a href="${webhooksPath(k.id)}">${webhookTexts(tx.lang).webhooks}</a></td>`;
  if (k.revoked_at || !canManage(who))
    return html`<tr${k.revoked_at ? html` class="inactive"` : ''}>${cells}<td></td></tr>`;
  return html`<tr>${cells}<td>
<details${refused ? html` open` : ''}><summary>${t.edit}<span class="visually-hidden"> ${k.label || t.unlabelled} …${k.hint}</span></summary>
<panel-key-form><form method="post" action="${keyPath(k)}" class="stack">${csrfField(who)}${limitFields(tx, k.id, refused?.fields ?? fieldsOf(k))}<button type="submit">${t.save}</button></form></panel-key-form>
</details>
<panel-revoke action="${keyPath(k, '/revoke')}" csrf="${who.session.csrf}" question="${revokeQuestion(tx, k)}" confirm-label="${t.revokeTitle}" cancel-label="${t.cancel}" failed-label="${t.revokeFailed}" done-label="${t.keyRevoked}">
<form method="get" action="${keyPath(k, '/revoke')}" data-revoke><button type="submit" class="danger">${t.revoke}<span class="visually-hidden"> ${k.label || t.unlabelled} …${k.hint}</span></button></form>
</panel-revoke>
</td></tr>`;
}

/** Active keys first, then the revoked, each part in the order they were created. */
const activeFirst = (keys: readonly KeyInfo[]) => [
  ...keys.filter((k) => !k.revoked_at),
  ...keys.filter((k) => k.revoked_at),
];

function keysTable(tx: Texts, who: Authenticated, keys: readonly KeyInfo[], refused?: RefusedKeyForm): Html {
  const { t } = tx;
  return html`<div class="scroll" role="region" aria-label="${t.keysTable}" tabindex="0">
<table class="keys">
<thead><tr><th scope="col">${t.key}</th><th scope="col">${t.state}</th><th scope="col">${t.created}</th><th scope="col">${t.lastUsed}</th><th scope="col">${t.origins}</th><th scope="col">${t.rate}</th><th scope="col">${webhookTexts(tx.lang).webhooks}</th><th scope="col">${t.actions}</th></tr></thead>
<tbody>${activeFirst(keys).map((k) => keyRow(tx, who, k, refused?.keyId === k.id ? refused : undefined))}</tbody>
</table>
</div>`;
}

export function apiBody(
  tx: Texts,
  who: Authenticated,
  facilityId: string,
  keys: readonly KeyInfo[],
  refused?: RefusedKeyForm,
): Html {
  const { t } = tx;
  const generating = refused && refused.keyId === undefined ? refused.fields : EMPTY_FORM;
  return html`${refused ? html`<p class="problems" role="alert">${refused.problem}</p>` : ''}
${keys.length === 0 ? html`<p>${t.noKeys}</p>` : keysTable(tx, who, keys, refused)}
${canManage(who) ? generateForm(tx, who, facilityId, generating) : ''}`;
}

/** The form that generates a key: for those whose role may (a viewer sees the keys, not the form). */
function generateForm(tx: Texts, who: Authenticated, facilityId: string, values: Required<KeyFormFields>): Html {
  const { t } = tx;
  return html`<panel-key-form><form method="post" action="/facilities/${encodeURIComponent(facilityId)}/keys" class="stack generate">
<h3>${t.generateTitle}</h3>
${csrfField(who)}${limitFields(tx, NEW_KEY, values)}
<button type="submit">${t.generate}</button>
</form></panel-key-form>`;
}

/** The one time the full key is shown: copy it now. */
export function newKeyBody({ t }: Texts, facilityId: string, key: string, info: KeyInfo, publicUrl: string): Html {
  return html`<h3>${t.newKey}</h3>
<p role="status"><strong>${t.copyNow}</strong> ${t.digestOnly}</p>
<label for="new-key">${t.keyLabel(info.label, info.hint)}</label>
<input id="new-key" readonly value="${key}" class="secret">
<panel-copy for="new-key" label="${t.copyKey}" done-label="${t.copied}"></panel-copy>
<label for="new-embed">${t.snippetWithKey}</label>
<textarea id="new-embed" readonly rows="3">${embedSnippet(DEFAULT_EMBED, { publicUrl, facilityId, keyText: key })}</textarea>
<panel-copy for="new-embed" label="${t.copy}" done-label="${t.copied}"></panel-copy>
<p><a href="/facilities/${encodeURIComponent(facilityId)}/api">${t.backToApi}</a></p>`;
}

/** The new key's page once it was shown: why it is not shown again, and the way back. */
export function keyShownBody({ t }: Texts, facilityId: string): Html {
  return html`<h3>${t.newKey}</h3>
<p role="status">${t.keyShownOnce}</p>
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

/** The revoke page of a key revoked already: why there is nothing to confirm, and the way back. */
export function keyRevokedBody({ t }: Texts, k: KeyInfo, problem: string): Html {
  return html`<p class="problems" role="alert">${problem}</p>
<p><a href="/facilities/${encodeURIComponent(k.facility_id)}/api">${t.backToApi}</a></p>`;
}
