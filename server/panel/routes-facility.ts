// The facility view, a tab at a time (listings, API keys, snapshots), and the snapshot publish that answers with it.
import { filterQuery, readListingFilter, type ListingFilter } from '../../shared/panel-listings.ts';
import { listResponseOf } from '../domain/views.ts';
import { html } from '../http/pages/html.ts';
import type { PanelContext } from './context.ts';
import type { Params } from '../http/router.ts';
import { htmlAnswer, plain, redirect, type PanelRequest } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { facilityInfoBody, facilityPath, tabbed, type Tab } from './pages/facility.ts';
import { apiBody, type RefusedKeyForm } from './pages/keys.ts';
import { panelPage } from './pages/layout.ts';
import { listingsBody, panelListingsOf } from './pages/listings.ts';
import { offsetOf, PAGE_SIZE, pageNumberOf } from './pages/pager.ts';
import { snapshotsBody } from './pages/snapshots.ts';
import { publishNow, snapshotHistory, snapshotStates } from './snapshots.ts';

/** One tab of the facility view; only the Listings tab reads listings, and only the page it shows. */
export async function facility(c: PanelContext, req: PanelRequest, { id, tab }: Params, refused?: RefusedKeyForm) {
  const head = await c.store.facilityHead(id!);
  if (!head) return plain(404, 'No such facility.');
  const body =
    tab === 'api'
      ? apiBody(c.tx, c.who, id!, await c.store.listKeys(id), refused)
      : tab === 'snapshots'
        ? snapshotsBody(
            c.tx,
            c.who,
            id!,
            (await snapshotStates(c.store, c.snapshots, [id!]))?.get(id!),
            await snapshotHistory(c.store, id!),
            await publishedNote(c, id!),
          )
        : await listingsTab(c, req, id!);
  const page = panelPage(c.tx, head.name, tabbed(c.tx, id!, (tab || 'listings') as Tab, body), c.who);
  return htmlAnswer(page, refused ? 400 : 200);
}

/**
 * The facility's address and hours, then one page of its listings, inactive ones included, with the terms partners
 * see now: the store reads the page the filter and order choose, and the API's own functions make the terms of its
 * listings alone. A facility that fits on one page is read whole, for the browser to filter and sort.
 */
async function listingsTab(c: PanelContext, req: PanelRequest, id: string) {
  const params = new URL(req.url, 'http://panel').searchParams;
  const filter = readListingFilter(params);
  const page = pageNumberOf(params);
  const pageOf = (f: ListingFilter, at: number) =>
    c.store.panelListingPage(id, { filter: f, limit: PAGE_SIZE, offset: offsetOf(at) });
  let read = await pageOf(filter, page);
  if (!read) return html`<p>${c.tx.t.noListings}</p>`;
  const whole = read.total <= PAGE_SIZE;
  if (whole && (page > 1 || filterQuery(filter) !== '')) read = (await pageOf({}, 1)) ?? read;
  const active = read.listings.filter((l) => l.active);
  const data = { facility: read.facility, pricing_rules: read.pricing_rules, listings: active };
  const { facility, listings } = listResponseOf(data, c.publicUrl, Date.now());
  const summaries = new Map(listings.map((s) => [s.id, s]));
  const counts = whole ? undefined : { shown: read.shown, total: read.total };
  return html`${facilityInfoBody(c.tx, facility)}
${listingsBody(c.tx, panelListingsOf(read, summaries), filter, page, counts)}`;
}

const shownPublish = (facilityId: string) => `published:${facilityId}`;

/**
 * Publishes now, then Post/Redirect/Get: a 303 to the Snapshots tab, which says what was published once (kept for
 * this session), so that a reload publishes nothing.
 */
export async function publish(c: PanelContext, _req: PanelRequest, { id }: Params): Promise<Answer> {
  if (!c.snapshots) return plain(409, 'This panel has no publish target.');
  if (!(await c.store.facilityHead(id!))) return plain(404, 'No such facility.');
  const summary = await publishNow(c.store, c.snapshots, c.publicUrl, id!, c.who.operator.email);
  const done = JSON.stringify({ version: summary.results[0]?.version ?? 0, target: summary.target });
  await c.store.keepShownOnce(c.who.session.digest, shownPublish(id!), done, new Date(c.now()));
  return redirect(facilityPath(id!, 'snapshots'));
}

/** What the last publish from this session said, the first time the tab is shown after it. */
async function publishedNote(c: PanelContext, facilityId: string): Promise<string | undefined> {
  const kept = await c.store.takeShownOnce(c.who.session.digest, shownPublish(facilityId), new Date(c.now()));
  if (!kept) return undefined;
  const { version, target } = JSON.parse(kept) as { version: number; target: string };
  return c.tx.t.published(version, target);
}
