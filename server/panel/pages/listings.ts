// The Listings tab: what partners see, filtered by area and sorted by column through links and a GET form, which
// <panel-listings> takes over in the browser with the same shared code (and the data block it reads), 50 a page.
import { html, jsonForScript, type Html } from '../../http/pages/html.ts';
import type { Summary } from '../../../shared/listing.ts';
import { priceOf } from '../../../shared/pricing.ts';
import {
  ariaSortOf,
  countText,
  filterQuery,
  nextSort,
  rowOf,
  shownListings,
  LISTING_STATES,
  type ListingFilter,
  type ListingRow,
  type PanelListings,
  type SortColumn,
} from '../../../shared/panel-listings.ts';
import type { PanelFacilityListings } from '../../store/panel.ts';
import type { Texts } from '../i18n/i18n.ts';
import { offsetOf, PAGE_SIZE, pageCount, pager, withPage } from './pager.ts';

/**
 * The listings with the API's own prices (priceOf, as every answer prices them), each one's total units, and for an
 * active one the terms of its Summary as the API answers it now (`summaries`, by id: promotions, features, move-in).
 */
export function panelListingsOf(data: PanelFacilityListings, summaries: ReadonlyMap<string, Summary>): PanelListings {
  const facility = { currency: data.facility.currency, pricing_rules: data.pricing_rules };
  return {
    pricing_rules: data.pricing_rules,
    listings: data.listings.map((l) => {
      const s = l.active ? summaries.get(l.id) : undefined;
      return {
        id: l.id,
        code: l.code,
        title: l.title,
        area_m2: l.area_m2,
        price: priceOf(l, facility),
        dynamic_pricing: l.dynamic_pricing,
        free_units: l.free_units,
        total_units: l.total_units,
        active: l.active,
        terms: s
          ? {
              promotions: s.promotions.map((p) => ({ title: p.title, gross: p.price.gross })),
              features: s.features,
              unit_type: s.unit_type,
              move_in: s.move_in.gross,
            }
          : null,
      };
    }),
  };
}

/** The terms partners see beyond price: promotions, unit type and features, the move-in total. */
export function termsCell({ t }: Texts, row: ListingRow): Html {
  if (row.moveIn === null) return html`<span class="muted">${t.notShown}</span>`;
  return html`<ul class="terms">${row.promotions.map((p) => html`<li><span class="badge">${p}</span></li>`)}${
    row.features.length ? html`<li>${row.features.join(', ')}</li>` : ''
  }<li>${t.moveIn} ${row.moveIn}</li></ul>`;
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
<div><label for="state">${t.listingState}</label><select id="state" name="state"><option value="">${t.stateAll}</option>${LISTING_STATES.map((st) => html`<option value="${st}"${filter.state === st ? html` selected` : ''}>${st === 'active' ? t.activeOnly : t.inactiveOnly}</option>`)}</select></div>
<input type="hidden" name="sort" value="${filter.sort ?? ''}">
<button type="submit">${t.filter}</button>
</form>`;
}

/** How many listings a paged facility has, and how many of them its filter shows: its store read counts them. */
export interface ListingCounts {
  shown: number;
  total: number;
}

/**
 * One page of the listings the filter shows. A facility that fits on one page carries its listings (`data`, all of
 * them) in a data block, for <panel-listings> to sort and filter in the browser; a larger one is paged, sorted and
 * filtered by its store read, and `data` is the page, with its `counts`.
 */
export function listingsBody(
  tx: Texts,
  data: PanelListings,
  filter: ListingFilter,
  page: number,
  counts?: ListingCounts,
): Html {
  const { t, lang } = tx;
  const total = counts?.total ?? data.listings.length;
  if (total === 0) return html`<p>${t.noListings}</p>`;
  const filtered = counts ? undefined : shownListings(data.listings, filter);
  const shown = counts?.shown ?? filtered!.length;
  const rows = filtered ? filtered.slice(offsetOf(page), offsetOf(page) + PAGE_SIZE) : data.listings;
  const paged = counts !== undefined;
  const query = new URLSearchParams(filterQuery(filter));
  const nav = pager(tx, page, shown, (to) => withPage(Object.fromEntries(query), to));
  const badge = (text: string) => html`<span class="badge">${text}</span>`;
  return html`<p class="muted">${t.asPartnersSee} ${badge(t.dynamic)} ${t.dynamicMarks}</p>
<panel-listings dynamic-label="${t.dynamic}" count-label="${t.shownCount}" none-label="${t.noMatch}" inactive-label="${t.inactive}" move-in-label="${t.moveIn}" not-shown-label="${t.notShown}">
${filterForm(tx, filter)}
<p role="status" class="count">${countText(t.shownCount, shown, total)}</p>
<div class="scroll" role="region" aria-label="${t.listingsTable}" tabindex="0">
<table>
<thead><tr>${sortHeader(t.code, 'code', filter)}<th scope="col">${t.title}</th>${sortHeader(t.area, 'area', filter)}${sortHeader(t.gross, 'price', filter)}<th scope="col">${t.net}</th><th scope="col">${t.freeUnits}</th><th scope="col">${t.terms}</th></tr></thead>
<tbody>${
    rows.length === 0
      ? html`<tr><td colspan="7">${shown === 0 ? t.noMatch : t.pastLastPage(pageCount(shown))}</td></tr>`
      : rows.map((l) => {
          const row = rowOf(l, data.pricing_rules, lang);
          return html`<tr${l.active ? '' : html` class="inactive"`}>
<th scope="row">${l.code}${l.active ? '' : html` <span class="badge off">${t.inactive}</span>`}</th>
<td>${l.title}</td>
<td>${row.area}</td>
<td>${row.gross}${row.adjust === null ? '' : html` ${badge(`${t.dynamic} ${row.adjust}`)}`}</td>
<td>${row.net}</td>
<td>${l.free_units}</td>
<td>${termsCell(tx, row)}</td>
</tr>`;
        })
  }</tbody>
</table>
</div>
${nav}
${paged ? '' : html`<script type="application/json">${jsonForScript(data)}</script>`}
</panel-listings>`;
}
