// A key's webhooks page: its endpoints with their state, the delivery log of each, and (for managers) adding,
// rotating, enabling, removing, a test event and replay (of a delivery that was delivered); the secret page that shows
// a new secret once.
import { html, type Html } from '../../http/pages/html.ts';
import { EVENT_TYPES } from '../../domain/webhook-events.ts';
import type { KeyInfo } from '../../store/keys.ts';
import type { EndpointInfo } from '../../store/webhook-endpoints.ts';
import { replayable, type Delivery, type DeliveryLog } from '../../store/webhook-log.ts';
import type { Authenticated } from '../auth.ts';
import type { Texts } from '../i18n/i18n.ts';
import { webhookTexts } from '../i18n/webhooks.ts';
import { canManage, csrfField, when } from './layout.ts';

export const webhooksPath = (keyId: string) => `/keys/${encodeURIComponent(keyId)}/webhooks`;
const endpointPath = (e: EndpointInfo, action: string) => `/webhooks/${encodeURIComponent(e.id)}/${action}`;

function action(who: Authenticated, path: string, label: string, danger = false): Html {
  return html`<form method="post" action="${path}" class="inline">${csrfField(who)}<button type="submit"${danger ? html` class="danger"` : ''}>${label}</button></form>`;
}

/** A revoked key's endpoint is stopped for good: nothing can be sent to it, tests and replays included. */
const stopped = (e: EndpointInfo) => e.disabled_reason === 'revoked_key';

function stateOf(tx: Texts, e: EndpointInfo): string {
  const w = webhookTexts(tx.lang);
  if (e.disabled_at) return w.disabled[e.disabled_reason ?? ''] ?? e.disabled_reason ?? '';
  return e.previous_until ? `${w.active}. ${w.rotatingUntil(when(tx, e.previous_until))}` : w.active;
}

/** What a manager may do with the endpoint: only Remove once its key is revoked. */
function endpointActions(tx: Texts, who: Authenticated, e: EndpointInfo): Html | string {
  if (!canManage(who)) return '';
  const w = webhookTexts(tx.lang);
  const remove = action(who, endpointPath(e, 'remove'), w.remove, true);
  if (stopped(e)) return html`<p class="actions">${remove}</p>`;
  return html`<p class="actions">${action(who, endpointPath(e, 'test'), w.sendTest)} ${action(who, endpointPath(e, 'rotate'), w.rotate)}
${e.disabled_at ? action(who, endpointPath(e, 'enable'), w.enable) : ''} ${remove}</p>`;
}

/** When a pending delivery goes next: after the one first in line, at its retry time, or (disabled) after enable. */
function nextTry(tx: Texts, d: Delivery): Html | string {
  if (d.waiting_for !== null)
    return html`<span data-waiting-for="${d.waiting_for}">${webhookTexts(tx.lang).waitsFor(d.waiting_for)}</span>`;
  return d.next_at ? when(tx, d.next_at) : '-';
}

function deliveryRows(tx: Texts, who: Authenticated, e: EndpointInfo, log: DeliveryLog): Html {
  const w = webhookTexts(tx.lang);
  if (log.shown.length === 0) return html`<p>${w.noDeliveries}</p>`;
  const row = (
    d: Delivery,
  ) => html`<tr data-delivery="${d.id}"><td>${d.id}</td><td>${d.type}</td><td data-delivery-status>${d.status}</td><td>${d.attempts}</td>
<td>${nextTry(tx, d)}</td><td>${d.last_code ?? d.last_error ?? '-'}</td>
<td>${canManage(who) && !stopped(e) && replayable(d) ? action(who, `/deliveries/${d.id}/replay`, w.replay) : ''}</td></tr>`;
  return html`<div class="scroll" role="region" aria-label="${w.deliveries}" tabindex="0"><table>
<thead><tr><th scope="col">${w.delivery}</th><th scope="col">${w.type}</th><th scope="col">${w.status}</th><th scope="col">${w.attempts}</th><th scope="col">${w.nextTry}</th><th scope="col">${w.answer}</th><th scope="col"><span class="visually-hidden">${w.replay}</span></th></tr></thead>
<tbody>${log.shown.map(row)}</tbody></table></div>
${log.hidden > 0 ? html`<p class="muted" data-deliveries-hidden="${log.hidden}">${w.notShown(log.hidden)}</p>` : ''}`;
}

function endpointSection(tx: Texts, who: Authenticated, e: EndpointInfo, log: DeliveryLog): Html {
  const w = webhookTexts(tx.lang);
  return html`<section class="endpoint" data-endpoint="${e.id}">
<h2>${e.url}</h2>
<p data-endpoint-state="${e.disabled_reason ?? 'delivering'}">${stateOf(tx, e)}</p>
<p class="muted">${w.events}: ${e.events.join(', ')}</p>
${endpointActions(tx, who, e)}
<h3>${w.deliveries}</h3>
${deliveryRows(tx, who, e, log)}
</section>`;
}

/** What the add form was sent with, and why it was refused: shown again above the form, filled in as it was. */
export interface RefusedEndpoint {
  problem: string;
  url: string;
  events: readonly string[];
}

function addForm(tx: Texts, who: Authenticated, key: KeyInfo, refused?: RefusedEndpoint): Html {
  const w = webhookTexts(tx.lang);
  const box = (type: string) =>
    html`<label><input type="checkbox" name="events" value="${type}"${!refused || refused.events.includes(type) ? html` checked` : ''}> ${type}</label>`;
  return html`<form method="post" action="${webhooksPath(key.id)}" class="stack">${csrfField(who)}
<h2>${w.add}</h2>
${refused ? html`<p class="problems" role="alert" id="webhook-problem">${w.notAdded} ${refused.problem}</p>` : ''}
<label for="webhook-url">${w.url}</label>
<input id="webhook-url" name="url" type="url" required placeholder="https://partner.example/hooks"${refused ? html` value="${refused.url}" aria-invalid="true" aria-describedby="webhook-problem"` : ''}>
<fieldset><legend>${w.events}</legend>${EVENT_TYPES.map(box)}</fieldset>
<button type="submit">${w.add}</button>
</form>`;
}

export function webhooksBody(
  tx: Texts,
  who: Authenticated,
  key: KeyInfo,
  endpoints: readonly { endpoint: EndpointInfo; log: DeliveryLog }[],
  refused?: RefusedEndpoint,
  /** Why an endpoint's action (a test event, enable) was refused: shown above the endpoints. */
  actionProblem?: string,
): Html {
  const w = webhookTexts(tx.lang);
  return html`${actionProblem ? html`<p class="problems" role="alert">${actionProblem}</p>` : ''}<p>${w.intro}</p>
${endpoints.length === 0 ? html`<p>${w.noEndpoints}</p>` : endpoints.map((e) => endpointSection(tx, who, e.endpoint, e.log))}
${canManage(who) && !key.revoked_at ? addForm(tx, who, key, refused) : refused ? html`<p class="problems" role="alert">${w.notAdded} ${refused.problem}</p>` : ''}
<p><a href="/facilities/${encodeURIComponent(key.facility_id)}/api">${w.back}</a></p>`;
}

/** The secret's page once it was shown: why it is not shown again, and the way back. */
export function secretShownBody(tx: Texts, endpoint: EndpointInfo): Html {
  const w = webhookTexts(tx.lang);
  return html`<h2>${w.secretTitle}</h2>
<p role="status">${w.secretShownOnce} ${endpoint.url}</p>
<p><a href="${webhooksPath(endpoint.key_id)}">${w.webhooks}</a></p>`;
}

/** The one time an endpoint's secret is shown. */
export function secretBody(tx: Texts, endpoint: EndpointInfo, secret: string): Html {
  const w = webhookTexts(tx.lang);
  return html`<h2>${w.secretTitle}</h2>
<p role="status"><strong>${w.copyNow}</strong> ${endpoint.url}</p>
<input id="webhook-secret" readonly value="${secret}" class="secret" aria-label="${w.secretTitle}">
<panel-copy for="webhook-secret" label="${tx.t.copy}" done-label="${tx.t.copied}"></panel-copy>
<p><a href="${webhooksPath(endpoint.key_id)}">${w.webhooks}</a></p>`;
}
