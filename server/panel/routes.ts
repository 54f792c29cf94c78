// The panel's pages and actions, each a pattern, the least role that may use it, and a function of the logged-in
// operator's context.
import { readListingFilter } from '../../shared/panel-listings.ts';
import type { Role } from '../domain/roles.ts';
import { listResponseOf } from '../domain/views.ts';
import { html } from '../http/pages/html.ts';
import { ListingsError } from '../errors.ts';
import type { PanelContext } from './handler.ts';
import { htmlAnswer, plain, type PanelRequest, type PanelResponse } from './http.ts';
import { UPLOAD_ROLE } from './admission.ts';
import { importRoute } from './import.ts';
import { accountRoutes } from './routes-account.ts';
import { auditRoute } from './routes-audit.ts';
import { embedRoutes } from './routes-embed.ts';
import { keyRoutes } from './routes-keys.ts';
import { facilitiesBody } from './pages/facilities.ts';
import { facilityInfoBody, tabbed, type Tab } from './pages/facility.ts';
import { listingsBody, panelListingsOf } from './pages/listings.ts';
import { importBody } from './pages/import.ts';
import { panelPage } from './pages/layout.ts';
import { offsetOf, PAGE_SIZE, pageNumberOf } from './pages/pager.ts';
import { apiBody } from './pages/keys.ts';
import { snapshotCell, snapshotsBody } from './pages/snapshots.ts';
import { publishNow, snapshotHistory, snapshotStates } from './snapshots.ts';

export interface Route {
  method: string;
  pattern: RegExp;
  /** The least role that may use it (the handler refuses the rest): viewer reads, manager changes data and keys. */
  role: Role;
  /** Reachable before two-factor enrolment when the panel requires it: the enrolment itself and logging out. */
  beforeEnrolment?: boolean;
  run(ctx: PanelContext, req: PanelRequest, params: string[]): Promise<PanelResponse>;
}

const FACILITY = '/facilities/([a-z0-9-]{1,64})';

export function pageRoutes(): Route[] {
  return [
    { method: 'GET', pattern: /^\/$/, role: 'viewer', run: facilities },
    { method: 'GET', pattern: new RegExp(`^${FACILITY}(?:/(api|snapshots))?$`), role: 'viewer', run: facility },
    {
      method: 'GET',
      pattern: /^\/import$/,
      role: UPLOAD_ROLE,
      run: async (c) => htmlAnswer(panelPage(c.tx, c.tx.t.import, importBody(c.tx, c.who), c.who)),
    },
    { method: 'POST', pattern: /^\/import$/, role: UPLOAD_ROLE, run: importRoute },
    { method: 'GET', pattern: /^\/audit$/, role: 'viewer', run: auditRoute },
    { method: 'POST', pattern: new RegExp(`^${FACILITY}/snapshots/publish$`), role: 'manager', run: publish },
    ...keyRoutes(FACILITY),
    ...accountRoutes(),
    ...embedRoutes(FACILITY),
  ];
}

/** The facilities list: one page of those the search (`q`) matches, their counts from one query. */
async function facilities(c: PanelContext, req: PanelRequest): Promise<PanelResponse> {
  const params = new URL(req.url, 'http://panel').searchParams;
  const search = (params.get('q') ?? '').slice(0, 100);
  const page = pageNumberOf(params);
  const { total, rows } = await c.store.facilityPage({ search, offset: offsetOf(page), limit: PAGE_SIZE });
  const states = await snapshotStates(
    c.store,
    c.snapshots,
    rows.map((f) => f.id),
  );
  const lines = rows.map((f) => ({ ...f, snapshot: snapshotCell(c.tx, states?.get(f.id)) }));
  const body = facilitiesBody(c.tx, { rows: lines, total, search, page });
  return htmlAnswer(panelPage(c.tx, c.tx.t.facilities, body, c.who));
}

/** One tab of the facility view; only the Listings tab reads listings, and only what it shows of them. */
export async function facility(
  c: PanelContext,
  req: PanelRequest,
  [id, tab]: string[],
  problem?: string,
  done?: string,
) {
  const head = await c.store.facilityHead(id!);
  if (!head) return plain(404, 'No such facility.');
  const body =
    tab === 'api'
      ? apiBody(c.tx, c.who, id!, await c.store.listKeys(id), problem)
      : tab === 'snapshots'
        ? snapshotsBody(
            c.tx,
            c.who,
            id!,
            (await snapshotStates(c.store, c.snapshots, [id!]))?.get(id!),
            await snapshotHistory(c.store, id!),
            done,
          )
        : await listingsTab(c, req, id!);
  const page = panelPage(c.tx, head.name, tabbed(c.tx, id!, (tab || 'listings') as Tab, body), c.who);
  return htmlAnswer(page, problem ? 400 : 200);
}

/** The facility's address and hours, then its listings, inactive ones included, with the terms partners see now. */
async function listingsTab(c: PanelContext, req: PanelRequest, id: string) {
  const [data, served] = await Promise.all([c.store.panelListings(id), c.store.facilityData(id)]);
  if (!data || !served) return html`<p>${c.tx.t.noListings}</p>`;
  const params = new URL(req.url, 'http://panel').searchParams;
  const { facility, listings } = listResponseOf(served, c.publicUrl, Date.now());
  const summaries = new Map(listings.map((s) => [s.id, s]));
  return html`${facilityInfoBody(c.tx, facility)}
${listingsBody(c.tx, panelListingsOf(data, summaries), readListingFilter(params), pageNumberOf(params))}`;
}

async function publish(c: PanelContext, req: PanelRequest, [id]: string[]): Promise<PanelResponse> {
  if (!c.snapshots) return plain(409, 'This panel has no publish target.');
  if (!(await c.store.facilityHead(id!))) return plain(404, 'No such facility.');
  const summary = await publishNow(c.store, c.snapshots, c.publicUrl, id!, c.who.operator.email);
  const version = summary.results[0]?.version;
  return facility(c, req, [id!, 'snapshots'], undefined, c.tx.t.published(version ?? 0, summary.target));
}

/** A refusal the operator can fix (a bad rate, an unknown key) as its message; anything else is thrown on. */
export function problemOf(err: unknown): string {
  if (err instanceof ListingsError) return err.message;
  throw err;
}
