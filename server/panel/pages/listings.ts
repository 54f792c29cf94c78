// The Listings tab: what partners see, filtered by area and sorted by column through links and a GET form, which
// <panel-listings> takes over in the browser with the same shared code (and the data block it reads).
import { html, jsonForScript, type Html } from '../../http/pages/html.ts';
import type { ListResponse } from '../../../shared/listing.ts';
import {
  ariaSortOf,
  countText,
  filterQuery,
  nextSort,
  rowOf,
  shownListings,
  type ListingFilter,
  type PanelListings,
  type SortColumn,
} from '../../../shared/panel-listings.ts';
import type { FacilityData } from '../../domain/facility.ts';
import type { Texts } from '../i18n/i18n.ts';

/** The API's Summary objects (its prices) with each listing's total units, for the occupancy its price rule read. */
export function panelListingsOf(data: FacilityData, view: ListResponse): PanelListings {
  return {
    pricing_rules: data.pricing_rules,
    listings: view.listings.map((s, i) => ({
      id: s.id,
      code: s.code,
      title: s.title,
      area_m2: s.area_m2,
      price: s.price,
      dynamic_pricing: s.dynamic_pricing,
      free_units: s.free_units,
      total_units: data.listings[i]!.total_units,
    })),
  };
}

function sortHeader(label: string, column: SortColumn, filter: ListingFilter): Html {
  const sort = ariaSortOf(filter.sort, column);
  const href = filterQuery({ ...filter, sort: nextSort(filter.sort, column) });
  return html`<th scope="col"${sort ? html` aria-sort="${sort}"` : ''}><a href="${href}" data-sort="${column}">${label}</a></th>`;
}

function filterForm({ t }: Texts, filter: ListingFilter): Html {
  return html`<form method="get" class="filter" role="search" aria-label="${t.filterListings}">
<div><label for="min-area">${t.minArea}</label><input id="min-area" name="min_area" inputmode="decimal" value="${filter.min_area ?? ''}"></div>
<div><label for="max-area">${t.maxArea}</label><input id="max-area" name="max_area" inputmode="decimal" value="${filter.max_area ?? ''}"></div>
<input type="hidden" name="sort" value="${filter.sort ?? ''}">
<button type="submit">${t.filter}</button>
</form>`;
}

export function listingsBody(tx: Texts, data: PanelListings, filter: ListingFilter): Html {
  const { t, lang } = tx;
  if (data.listings.length === 0) return html`<p>${t.noListings}</p>`;
  const shown = shownListings(data.listings, filter);
  const badge = (text: string) => html`<span class="badge">${text}</span>`;
  return html`<p class="muted">${t.asPartnersSee} ${badge(t.dynamic)} ${t.dynamicMarks}</p>
<panel-listings dynamic-label="${t.dynamic}" count-label="${t.shownCount}" none-label="${t.noMatch}">
${filterForm(tx, filter)}
<p role="status" class="count">${countText(t.shownCount, shown.length, data.listings.length)}</p>
<div class="scroll" role="region" aria-label="${t.listingsTable}" tabindex="0">
<table>
<thead><tr>${sortHeader(t.code, 'code', filter)}<th scope="col">${t.title}</th>${sortHeader(t.area, 'area', filter)}${sortHeader(t.gross, 'price', filter)}<th scope="col">${t.net}</th><th scope="col">${t.freeUnits}</th></tr></thead>
<tbody>${
    shown.length === 0
      ? html`<tr><td colspan="6">${t.noMatch}</td></tr>`
      : shown.map((l) => {
          const row = rowOf(l, data.pricing_rules, lang);
          return html`<tr>
<th scope="row">${l.code}</th>
<td>${l.title}</td>
<td>${row.area}</td>
<td>${row.gross}${row.adjust === null ? '' : html` ${badge(`${t.dynamic} ${row.adjust}`)}`}</td>
<td>${row.net}</td>
<td>${l.free_units}</td>
</tr>`;
        })
  }</tbody>
</table>
</div>
<script type="application/json">${jsonForScript(data)}</script>
</panel-listings>`;
}
