// The list of facilities, a page at a time with a search: listings, free units, last import, snapshot state.
import { html } from '../../http/pages/html.ts';
import type { FacilitySummary } from '../../store/panel.ts';
import type { Texts } from '../i18n/i18n.ts';
import { when } from './layout.ts';
import { pager, withPage } from './pager.ts';

export interface FacilityLine extends FacilitySummary {
  snapshot: string;
}

export interface FacilityList {
  rows: readonly FacilityLine[];
  /** Facilities the search matches, on every page. */
  total: number;
  search: string;
  page: number;
}

function searchForm({ t }: Texts, search: string) {
  return html`<form method="get" action="/" class="filter" role="search" aria-label="${t.facilities}">
<div><label for="q">${t.searchFacilities}</label><input id="q" name="q" type="search" maxlength="100" value="${search}"></div>
<button type="submit">${t.search}</button>
</form>`;
}

export function facilitiesBody(tx: Texts, list: FacilityList) {
  const { t } = tx;
  const { rows, total, search, page } = list;
  if (total === 0 && search === '' && page === 1)
    return html`<p>${t.noFacilities} <a href="/import">${t.importToAdd}</a></p>`;
  const nav = pager(tx, page, total, (to) => `/${withPage({ q: search }, to)}`);
  // Past the last page the pager says so; only a search that finds nothing is told it matched nothing.
  if (rows.length === 0)
    return html`${searchForm(tx, search)}${total === 0 ? html`<p>${t.noFacilityMatch}</p>` : ''}${nav}`;
  return html`${searchForm(tx, search)}
<div class="scroll" role="region" aria-label="${t.facilities}" tabindex="0">
<table>
<thead><tr><th scope="col">${t.facility}</th><th scope="col">${t.listings}</th><th scope="col">${t.freeUnits}</th><th scope="col">${t.lastImport}</th><th scope="col">${t.snapshot}</th></tr></thead>
<tbody>${rows.map(
    (f) => html`<tr>
<th scope="row"><a href="/facilities/${encodeURIComponent(f.id)}">${f.name}</a> <span class="muted">${f.id}</span></th>
<td>${t.activeOf(f.active_listings, f.listings)}</td>
<td>${f.free_units}</td>
<td>${when(tx, f.imported_at)}</td>
<td>${f.snapshot}</td>
</tr>`,
  )}</tbody>
</table>
</div>
${nav}`;
}
