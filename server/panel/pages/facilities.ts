// The list of facilities: listings, free units, last import.
import { html } from '../../http/pages/html.ts';
import type { FacilityCount } from '../../store/facilities.ts';
import { when } from './layout.ts';

export interface FacilityLine extends FacilityCount {
  free_units: number;
  snapshot: string;
}

export function facilitiesBody(rows: readonly FacilityLine[]) {
  if (rows.length === 0) return html`<p>No facilities yet. <a href="/import">Import a file</a> to add them.</p>`;
  return html`<div class="scroll" role="region" aria-label="Facilities" tabindex="0">
<table>
<thead><tr><th scope="col">Facility</th><th scope="col">Listings</th><th scope="col">Free units</th><th scope="col">Last import</th><th scope="col">Snapshot</th></tr></thead>
<tbody>${rows.map(
    (f) => html`<tr>
<th scope="row"><a href="/facilities/${encodeURIComponent(f.id)}">${f.name}</a> <span class="muted">${f.id}</span></th>
<td>${f.active_listings} active of ${f.listings}</td>
<td>${f.free_units}</td>
<td>${when(f.imported_at)}</td>
<td>${f.snapshot}</td>
</tr>`,
  )}</tbody>
</table>
</div>`;
}
