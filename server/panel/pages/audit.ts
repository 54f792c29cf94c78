// The audit log page: who did what to keys and data, newest first.
import { html } from '../../http/pages/html.ts';
import type { AuditRow } from '../../store/audit.ts';
import { when } from './layout.ts';

export function auditBody(rows: readonly AuditRow[]) {
  if (rows.length === 0) return html`<p>Nothing recorded yet.</p>`;
  return html`<div class="scroll" role="region" aria-label="Audit log" tabindex="0">
<table>
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Facility</th><th scope="col">Key</th><th scope="col">Detail</th></tr></thead>
<tbody>${rows.map(
    (r) => html`<tr><td>${when(r.at)}</td><td>${r.actor}</td><td>${r.action}</td><td>${r.facility_id ?? ''}</td>
<td>${r.key_id ?? ''}</td><td><code>${JSON.stringify(r.detail)}</code></td></tr>`,
  )}</tbody>
</table>
</div>`;
}
