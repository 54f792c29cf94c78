// The panel's pages and actions, each a path, the least role that may use it, and a function of the logged-in
// operator's context.
import type { PanelContext, Route } from './context.ts';
import { htmlAnswer, type PanelRequest } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { UPLOAD_ROLE } from './admission.ts';
import { importRoute } from './import.ts';
import { facility, publish } from './routes-facility.ts';
import { accountRoutes } from './routes-account.ts';
import { auditRoute } from './routes-audit.ts';
import { embedRoutes } from './routes-embed.ts';
import { keyRoutes } from './routes-keys.ts';
import { referralRoutes } from './routes-referrals.ts';
import { webhookRoutes } from './routes-webhooks.ts';
import { facilitiesBody } from './pages/facilities.ts';
import { importPage } from './import-page.ts';
import { panelPage } from './pages/layout.ts';
import { pageNumberOf, readPage } from './pages/pager.ts';
import { snapshotCell } from './pages/snapshots.ts';
import { snapshotStates } from './snapshots.ts';

const FACILITY = '/facilities/:id([a-z0-9-]{1,64})';

export function pageRoutes(): Route[] {
  return [
    { path: '/', methods: { GET: { role: 'viewer', run: facilities } } },
    { path: FACILITY, methods: { GET: { role: 'viewer', run: facility } } },
    { path: `${FACILITY}/:tab(api|snapshots)`, methods: { GET: { role: 'viewer', run: facility } } },
    {
      path: '/import',
      methods: {
        GET: {
          role: UPLOAD_ROLE,
          run: async (c) => importPage(c.tx, c.who),
        },
        POST: { role: UPLOAD_ROLE, run: importRoute },
      },
    },
    { path: '/audit', methods: { GET: { role: 'viewer', run: auditRoute } } },
    { path: `${FACILITY}/snapshots/publish`, methods: { POST: { role: 'manager', run: publish } } },
    ...keyRoutes(FACILITY),
    ...referralRoutes(),
    ...webhookRoutes(),
    ...accountRoutes(),
    ...embedRoutes(FACILITY),
  ];
}

/** The facilities list: one page of those the search (`q`) matches, their counts from one query. */
async function facilities(c: PanelContext, req: PanelRequest): Promise<Answer> {
  const params = new URL(req.url, 'http://panel').searchParams;
  const search = (params.get('q') ?? '').slice(0, 100);
  const page = pageNumberOf(params);
  const { total, rows } = await readPage(page, (limit, offset) => c.store.facilityPage({ search, offset, limit }));
  const states = await snapshotStates(
    c.store,
    c.snapshots,
    rows.map((f) => f.id),
  );
  const lines = rows.map((f) => ({ ...f, snapshot: snapshotCell(c.tx, states?.get(f.id)) }));
  const body = facilitiesBody(c.tx, { rows: lines, total, search, page });
  return htmlAnswer(panelPage(c.tx, c.tx.t.facilities, body, c.who));
}
