// The audit log page: its filters read from the query, and a page of 50 rows that match them.
import { AUDIT_ACTIONS } from '../store/audit.ts';
import type { PanelContext } from './context.ts';
import { htmlAnswer, type PanelRequest } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { auditBody, type AuditFilter } from './pages/audit.ts';
import { panelPage } from './pages/layout.ts';
import { pageNumberOf, readPage } from './pages/pager.ts';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters as the form sends them; a value of the wrong shape is dropped, so the page never fails over one. */
export function auditFilterOf(params: URLSearchParams): AuditFilter {
  const text = (name: string, max: number) => (params.get(name) ?? '').trim().slice(0, max);
  const day = (name: string) => {
    const v = text(name, 10);
    return DAY.test(v) && !Number.isNaN(Date.parse(v)) ? v : '';
  };
  const action = text('action', 40);
  return {
    facility: text('facility', 64),
    operator: text('operator', 254),
    action: (AUDIT_ACTIONS as readonly string[]).includes(action) ? action : '',
    from: day('from'),
    to: day('to'),
  };
}

/** The day after `day` (YYYY-MM-DD), as the exclusive end of a filter that includes `day`. */
const dayAfter = (day: string) => new Date(Date.parse(day) + 86_400_000).toISOString().slice(0, 10);

export async function auditRoute(c: PanelContext, req: PanelRequest): Promise<Answer> {
  const params = new URL(req.url, 'http://panel').searchParams;
  const filter = auditFilterOf(params);
  const page = pageNumberOf(params);
  const query = {
    facilityId: filter.facility,
    actor: filter.operator,
    action: filter.action,
    from: filter.from,
    to: filter.to && dayAfter(filter.to),
  };
  const { rows, total } = await readPage(page, (limit, offset) => c.store.auditPage({ ...query, limit, offset }));
  return htmlAnswer(panelPage(c.tx, c.tx.t.audit, auditBody(c.tx, { rows, total, page, filter }), c.who));
}
