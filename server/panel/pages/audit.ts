// The audit log page: filters (facility, operator, action, days), then who did what, newest first, 50 to a page, each
// row's details in words.
import { html, type Html } from '../../http/pages/html.ts';
import { AUDIT_ACTIONS, type AuditRow } from '../../store/audit.ts';
import { accountTexts, type AccountMessages } from '../i18n/accounts.ts';
import type { Texts } from '../i18n/i18n.ts';
import { pager, withPage } from './pager.ts';

export interface AuditFilter {
  facility: string;
  operator: string;
  action: string;
  /** Days, YYYY-MM-DD, both included; '' for no bound. */
  from: string;
  to: string;
}

/** A filter the page cannot read, as typed: an unknown action, a day that is not one. */
export interface AuditProblem {
  field: 'action' | 'from' | 'to';
  text: string;
}

function problemText(a: AccountMessages, p: AuditProblem): string {
  return p.field === 'action' ? a.unknownAction(p.text) : a.unreadableDay(a[p.field], p.text);
}

/** A time to the second, in UTC: two actions in one minute still read in order. */
export const whenExact = (iso: string): string => `${iso.slice(0, 19).replace('T', ' ')} UTC`;

function valueText(value: unknown): string {
  if (Array.isArray(value)) return value.length === 0 ? '-' : value.map(valueText).join(', ');
  if (value === null || value === undefined) return '-';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `field: value` pairs in the page's language, the fields that name nothing new (ids shown in their columns) left out. */
export function detailText(a: AccountMessages, detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([field, value]) => `${a.fields[field] ?? field.replace(/_/g, ' ')}: ${valueText(value)}`)
    .join('; ');
}

/** The filters' form, the problems above it and each field it names marked invalid. */
function filterForm(tx: Texts, a: AccountMessages, f: AuditFilter, problems: readonly AuditProblem[]): Html {
  const field = (id: string, label: string, input: Html) =>
    html`<div><label for="audit-${id}">${label}</label> ${input}</div>`;
  const invalid = (name: AuditProblem['field']) =>
    problems.some((p) => p.field === name) ? html` aria-invalid="true" aria-describedby="audit-problems"` : '';
  const shown = problems.length
    ? html`<p class="problems" role="alert" id="audit-problems">${problems.map((p) => problemText(a, p)).join(' ')}</p>
`
    : '';
  return html`${shown}<form method="get" action="/audit" class="filters">
${field('facility', tx.t.facility, html`<input id="audit-facility" name="facility" value="${f.facility}" maxlength="64">`)}
${field('operator', a.operator, html`<input id="audit-operator" name="operator" value="${f.operator}" maxlength="254">`)}
${field('action', a.action, html`<select id="audit-action" name="action"${invalid('action')}><option value="">${a.anyAction}</option>${AUDIT_ACTIONS.map((x) => html`<option${x === f.action ? html` selected` : ''}>${x}</option>`)}</select>`)}
${field('from', a.from, html`<input id="audit-from" name="from" type="date" value="${f.from}"${invalid('from')}>`)}
${field('to', a.to, html`<input id="audit-to" name="to" type="date" value="${f.to}"${invalid('to')}>`)}
<button type="submit">${a.filter}</button>
</form>`;
}

export function auditBody(
  tx: Texts,
  view: {
    rows: readonly AuditRow[];
    total: number;
    page: number;
    filter: AuditFilter;
    problems: readonly AuditProblem[];
  },
): Html {
  const { t } = tx;
  const a = accountTexts(tx.lang);
  const { rows, total, page, filter, problems } = view;
  const form = filterForm(tx, a, filter, problems);
  // Filters the page cannot read select nothing: no rows, and no word that nothing matched.
  if (problems.length > 0) return form;
  const href = (to: number) => `/audit${withPage({ ...filter }, to)}`;
  if (rows.length === 0) {
    // Past the last page, the pager says so; otherwise: nothing at all, or nothing these filters match.
    const filtered = Object.values(filter).some((value) => value !== '');
    const empty = total > 0 ? '' : html`<p>${filtered ? t.nothingMatches : t.nothingYet}</p>`;
    return html`${form}${empty}${pager(tx, page, total, href)}`;
  }
  return html`${form}<div class="scroll" role="region" aria-label="${t.audit}" tabindex="0">
<table>
<thead><tr><th scope="col">${t.when}</th><th scope="col">${t.who}</th><th scope="col">${t.what}</th><th scope="col">${t.facility}</th><th scope="col">${t.key}</th><th scope="col">${t.detail}</th></tr></thead>
<tbody>${rows.map(
    (
      r,
    ) => html`<tr><td><time datetime="${r.at}">${whenExact(r.at)}</time></td><td>${r.actor}</td><td>${r.action}</td><td>${r.facility_id ?? ''}</td>
<td>${r.key_id ?? ''}</td><td>${detailText(a, r.detail)}</td></tr>`,
  )}</tbody>
</table>
</div>
${pager(tx, page, total, href)}`;
}
