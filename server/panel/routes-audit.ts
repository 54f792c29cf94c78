// The audit log page: its filters read from the query, and a page of 50 rows that match them.
import { dayAfter, isDay } from '../domain/audit-days.ts';
import { AUDIT_ACTIONS } from '../store/audit.ts';
import type { PanelContext } from './context.ts';
import { htmlAnswer, type PanelRequest } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { auditBody, type AuditFilter, type AuditProblem } from './pages/audit.ts';
import { panelPage } from './pages/layout.ts';
import { pageNumberOf, readPage } from './pages/pager.ts';

/**
 * The filters as the form sends them, and those it cannot read: an action the log does not know, a day that is not
 * one. Such a filter is named to the operator rather than dropped, since dropping it would show rows it excludes.
 */
export function auditFilterOf(params: URLSearchParams): { filter: AuditFilter; problems: AuditProblem[] } {
  const text = (name: string, max: number) => (params.get(name) ?? '').trim().slice(0, max);
  const filter = {
    facility: text('facility', 64),
    operator: text('operator', 254),
    action: text('action', 40),
    from: text('from', 10),
    to: text('to', 10),
  };
  const problems: AuditProblem[] = [];
  if (filter.action && !(AUDIT_ACTIONS as readonly string[]).includes(filter.action))
    problems.push({ field: 'action', text: filter.action });
  for (const field of ['from', 'to'] as const)
    if (filter[field] && !isDay(filter[field])) problems.push({ field, text: filter[field] });
  return { filter, problems };
}

export async function auditRoute(c: PanelContext, req: PanelRequest): Promise<Answer> {
  const params = new URL(req.url, 'http://panel').searchParams;
  const { filter, problems } = auditFilterOf(params);
  const page = pageNumberOf(params);
  const title = c.tx.t.audit;
  if (problems.length > 0)
    return htmlAnswer(
      panelPage(c.tx, title, auditBody(c.tx, { rows: [], total: 0, page, filter, problems }), c.who),
      400,
    );
  const query = {
    facilityId: filter.facility,
    actor: filter.operator,
    action: filter.action,
    from: filter.from,
    to: filter.to && dayAfter(filter.to),
  };
  const { rows, total } = await readPage(page, (limit, offset) => c.store.auditPage({ ...query, limit, offset }));
  return htmlAnswer(panelPage(c.tx, title, auditBody(c.tx, { rows, total, page, filter, problems }), c.who));
}
