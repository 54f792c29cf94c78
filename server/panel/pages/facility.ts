// The facility view's frame and its Listings and Embed tabs: what partners see, and how they show it.
import { html, type Html } from '../../http/pages/html.ts';
import type { ListResponse } from '../../../shared/listing.ts';
import { formatArea, formatMoney } from '../../../shared/format.ts';
import type { Messages, Texts } from '../i18n/i18n.ts';

export const TABS = [
  ['listings', 'tabListings'],
  ['api', 'tabApi'],
  ['snapshots', 'tabSnapshots'],
  ['embed', 'tabEmbed'],
] as const satisfies readonly (readonly [string, keyof Messages])[];
export type Tab = (typeof TABS)[number][0];

export function facilityPath(id: string, tab: Tab = 'listings'): string {
  const base = `/facilities/${encodeURIComponent(id)}`;
  return tab === 'listings' ? base : `${base}/${tab}`;
}

export function tabbed({ t }: Texts, facilityId: string, current: Tab, body: Html): Html {
  return html`<nav aria-label="${t.navFacility}" class="tabs"><ul>${TABS.map(
    ([tab, label]) =>
      html`<li><a href="${facilityPath(facilityId, tab)}"${tab === current ? html` aria-current="page"` : ''}>${t[label]}</a></li>`,
  )}</ul></nav>
<section aria-labelledby="tab-title">
<h2 id="tab-title">${t[TABS.find(([tab]) => tab === current)![1]]}</h2>
${body}
</section>`;
}

/** The same Summary objects the API answers with, formatted by the widget's own code in the operator's language. */
export function listingsBody({ t, lang }: Texts, view: ListResponse): Html {
  if (view.listings.length === 0) return html`<p>${t.noListings}</p>`;
  const badge = html`<span class="badge">${t.dynamic}</span>`;
  return html`<p class="muted">${t.asPartnersSee} ${badge} ${t.dynamicMarks}</p>
<div class="scroll" role="region" aria-label="${t.listingsTable}" tabindex="0">
<table>
<thead><tr><th scope="col">${t.code}</th><th scope="col">${t.title}</th><th scope="col">${t.area}</th><th scope="col">${t.gross}</th><th scope="col">${t.net}</th><th scope="col">${t.freeUnits}</th></tr></thead>
<tbody>${view.listings.map(
    (l) => html`<tr>
<th scope="row">${l.code}</th>
<td>${l.title}</td>
<td>${formatArea(l.area_m2, lang)}</td>
<td>${formatMoney(l.price.gross, l.price.currency, lang)}${l.dynamic_pricing ? html` ${badge}` : ''}</td>
<td>${formatMoney(l.price.net, l.price.currency, lang)}</td>
<td>${l.free_units}</td>
</tr>`,
  )}</tbody>
</table>
</div>`;
}

export function embedSnippet(publicUrl: string, key = 'YOUR_API_KEY'): string {
  return `<script type="module" src="${publicUrl}/widget/storage-listings.js"></script>
<storage-listings api-key="${key}" api-base="${publicUrl}"></storage-listings>`;
}

export function embedBody({ t }: Texts, publicUrl: string): Html {
  return html`<p>${t.embedIntro} <code>YOUR_API_KEY</code>.</p>
<label for="embed">${t.embedSnippet}</label>
<textarea id="embed" readonly rows="3">${embedSnippet(publicUrl)}</textarea>
<button type="button" class="copy" data-copy="embed" hidden>${t.copy}</button>`;
}
