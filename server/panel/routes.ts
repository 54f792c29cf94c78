// The panel's pages and actions, each a pattern and a function of the logged-in operator's context.
import { readListingFilter } from '../../shared/panel-listings.ts';
import { listResponseOf } from '../domain/views.ts';
import { ListingsError } from '../errors.ts';
import type { PanelContext } from './handler.ts';
import { htmlAnswer, plain, type PanelRequest, type PanelResponse } from './http.ts';
import { importRoute } from './import.ts';
import { keyRoutes } from './routes-keys.ts';
import { auditBody } from './pages/audit.ts';
import { facilitiesBody } from './pages/facilities.ts';
import { embedBody, tabbed, type Tab } from './pages/facility.ts';
import { listingsBody, panelListingsOf } from './pages/listings.ts';
import { importBody } from './pages/import.ts';
import { panelPage } from './pages/layout.ts';
import { apiBody } from './pages/keys.ts';
import { snapshotCell, snapshotsBody } from './pages/snapshots.ts';
import { publishNow, snapshotStates } from './snapshots.ts';

export interface Route {
  method: string;
  pattern: RegExp;
  run(ctx: PanelContext, req: PanelRequest, params: string[]): Promise<PanelResponse>;
}

const FACILITY = '/facilities/([a-z0-9-]{1,64})';

export function pageRoutes(): Route[] {
  return [
    { method: 'GET', pattern: /^\/$/, run: facilities },
    { method: 'GET', pattern: new RegExp(`^${FACILITY}(?:/(api|snapshots|embed))?$`), run: facility },
    {
      method: 'GET',
      pattern: /^\/import$/,
      run: async (c) => htmlAnswer(panelPage(c.tx, c.tx.t.import, importBody(c.tx, c.who), c.who)),
    },
    { method: 'POST', pattern: /^\/import$/, run: importRoute },
    { method: 'GET', pattern: /^\/audit$/, run: audit },
    { method: 'POST', pattern: new RegExp(`^${FACILITY}/snapshots/publish$`), run: publish },
    ...keyRoutes(FACILITY),
  ];
}

async function facilities(c: PanelContext): Promise<PanelResponse> {
  const states = await snapshotStates(c.store, c.snapshots);
  const rows = await Promise.all(
    (await c.store.listFacilities()).map(async (f) => {
      const data = await c.store.facilityData(f.id);
      const free = data?.listings.reduce((sum, l) => sum + l.free_units, 0) ?? 0;
      return { ...f, free_units: free, snapshot: snapshotCell(c.tx, states?.get(f.id)) };
    }),
  );
  return htmlAnswer(panelPage(c.tx, c.tx.t.facilities, facilitiesBody(c.tx, rows), c.who));
}

/** One tab of the facility view. */
export async function facility(
  c: PanelContext,
  req: PanelRequest,
  [id, tab]: string[],
  problem?: string,
  done?: string,
) {
  const data = await c.store.facilityData(id!);
  if (!data) return plain(404, 'No such facility.');
  const body =
    tab === 'api'
      ? apiBody(c.tx, c.who, id!, await c.store.listKeys(id), problem)
      : tab === 'snapshots'
        ? snapshotsBody(c.tx, c.who, id!, (await snapshotStates(c.store, c.snapshots))?.get(id!), done)
        : tab === 'embed'
          ? embedBody(c.tx, c.publicUrl)
          : listingsBody(
              c.tx,
              panelListingsOf(data, listResponseOf(data, c.publicUrl)),
              readListingFilter(new URL(req.url, 'http://panel').searchParams),
            );
  const page = panelPage(c.tx, data.facility.name, tabbed(c.tx, id!, (tab || 'listings') as Tab, body), c.who);
  return htmlAnswer(page, problem ? 400 : 200);
}

async function publish(c: PanelContext, req: PanelRequest, [id]: string[]): Promise<PanelResponse> {
  if (!c.snapshots) return plain(409, 'This panel has no publish target.');
  if (!(await c.store.facilityData(id!))) return plain(404, 'No such facility.');
  const summary = await publishNow(c.store, c.snapshots, c.publicUrl, id!, c.who.operator.email);
  const version = summary.results[0]?.version;
  return facility(c, req, [id!, 'snapshots'], undefined, c.tx.t.published(version ?? 0, summary.target));
}

async function audit(c: PanelContext): Promise<PanelResponse> {
  return htmlAnswer(panelPage(c.tx, c.tx.t.audit, auditBody(c.tx, await c.store.listAudit()), c.who));
}

/** A refusal the operator can fix (a bad rate, an unknown key) as its message; anything else is thrown on. */
export function problemOf(err: unknown): string {
  if (err instanceof ListingsError) return err.message;
  throw err;
}
