// The facility view's frame and its Listings and Embed tabs: what partners see, and how they show it.
import { html, type Html } from '../../http/pages/html.ts';
import type { ListResponse } from '../../../shared/listing.ts';
import { formatArea, formatMoney } from '../../../shared/format.ts';

export const TABS = [
  ['listings', 'Listings'],
  ['api', 'API'],
  ['snapshots', 'Snapshots'],
  ['embed', 'Embed'],
] as const;
export type Tab = (typeof TABS)[number][0];

export function facilityPath(id: string, tab: Tab = 'listings'): string {
  const base = `/facilities/${encodeURIComponent(id)}`;
  return tab === 'listings' ? base : `${base}/${tab}`;
}

export function tabbed(facilityId: string, current: Tab, body: Html): Html {
  return html`<nav aria-label="Facility" class="tabs"><ul>${TABS.map(
    ([tab, label]) =>
      html`<li><a href="${facilityPath(facilityId, tab)}"${tab === current ? html` aria-current="page"` : ''}>${label}</a></li>`,
  )}</ul></nav>
<section aria-labelledby="tab-title">
<h2 id="tab-title">${TABS.find(([t]) => t === current)![1]}</h2>
${body}
</section>`;
}

/** The same Summary objects the API answers with: prices and free units cannot differ from what partners get. */
export function listingsBody(view: ListResponse): Html {
  if (view.listings.length === 0) return html`<p>No active listings.</p>`;
  return html`<p class="muted">As partners see them through the API now. <span class="badge">dynamic</span> marks a
price adjusted by occupancy.</p>
<div class="scroll" role="region" aria-label="Listings table" tabindex="0">
<table>
<thead><tr><th scope="col">Code</th><th scope="col">Title</th><th scope="col">Area</th><th scope="col">Price (gross)</th><th scope="col">Net</th><th scope="col">Free units</th></tr></thead>
<tbody>${view.listings.map(
    (l) => html`<tr>
<th scope="row">${l.code}</th>
<td>${l.title}</td>
<td>${formatArea(l.area_m2)}</td>
<td>${formatMoney(l.price.gross, l.price.currency)}${l.dynamic_pricing ? html` <span class="badge">dynamic</span>` : ''}</td>
<td>${formatMoney(l.price.net, l.price.currency)}</td>
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

export function embedBody(publicUrl: string): Html {
  return html`<p>Give partners these two tags, with a key from the API tab in place of <code>YOUR_API_KEY</code>.</p>
<label for="embed">Embed snippet</label>
<textarea id="embed" readonly rows="3">${embedSnippet(publicUrl)}</textarea>
<button type="button" class="copy" data-copy="embed" hidden>Copy</button>`;
}
