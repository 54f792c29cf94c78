// The audit log page: who did what to keys and data, newest first.
import { html } from '../../http/pages/html.ts';
import type { AuditRow } from '../../store/audit.ts';
import type { Texts } from '../i18n/i18n.ts';
import { when } from './layout.ts';

export function auditBody(tx: Texts, rows: readonly AuditRow[]) {
  const { t } = tx;
  if (rows.length === 0) return html`<p>${t.nothingYet}</p>`;
  return html`<div class="scroll" role="region" aria-label="${t.audit}" tabindex="0">
<table>
<thead><tr><th scope="col">${t.when}</th><th scope="col">${t.who}</th><th scope="col">${t.what}</th><th scope="col">${t.facility}</th><th scope="col">${t.key}</th><th scope="col">${t.detail}</th></tr></thead>
<tbody>${rows.map(
    (r) => html`<tr><td>${when(tx, r.at)}</td><td>${r.actor}</td><td>${r.action}</td><td>${r.facility_id ?? ''}</td>
<td>${r.key_id ?? ''}</td><td><code>${JSON.stringify(r.detail)}</code></td></tr>`,
  )}</tbody>
</table>
</div>`;
}
