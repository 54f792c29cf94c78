// The list of facilities: listings, free units, last import, snapshot state.
import { html } from '../../http/pages/html.ts';
import type { FacilityCount } from '../../store/facilities.ts';
import type { Texts } from '../i18n/i18n.ts';
import { when } from './layout.ts';

export interface FacilityLine extends FacilityCount {
  free_units: number;
  snapshot: string;
}

export function facilitiesBody(tx: Texts, rows: readonly FacilityLine[]) {
  const { t } = tx;
  if (rows.length === 0) return html`<p>${t.noFacilities} <a href="/import">${t.importToAdd}</a></p>`;
  return html`<div class="scroll" role="region" aria-label="${t.facilities}" tabindex="0">
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
</div>`;
}
