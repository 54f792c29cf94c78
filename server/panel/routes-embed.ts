// The Embed tab and its preview's data: the facility's list and Details exactly as the API's bodies, read through the
// operator's session, so the widget previews real data with no partner's key in the page.
import { readEmbedOptions } from '../../shared/embed-options.ts';
import { hasFacilityHeader } from '../../shared/embed-reserve.ts';
import { isSortKey, sortListings } from '../../shared/sort.ts';
import { detailOf, listResponseOf } from '../domain/views.ts';
import type { PanelContext } from './context.ts';
import type { Params } from '../http/router.ts';
import { htmlAnswer, jsonAnswer, PANEL_CSP, plain, type PanelRequest } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { embedBody } from './pages/embed.ts';
import { tabbed } from './pages/facility.ts';
import { panelPage } from './pages/layout.ts';
import type { Route } from './context.ts';

/** The widget's module, served from the panel itself: the CSP allows scripts of its own origin only. */
export const WIDGET_ASSET = '/assets/storage-listings.js';

export function embedRoutes(facility: string): Route[] {
  return [
    { path: `${facility}/embed`, methods: { GET: { role: 'viewer', run: embedPage } } },
    { path: `${facility}/preview/external/listings`, methods: { GET: { role: 'viewer', run: previewList } } },
    {
      path: `${facility}/preview/external/listings/:listing([A-Za-z0-9_-]{1,80})`,
      methods: { GET: { role: 'viewer', run: previewDetail } },
    },
  ];
}

/** The API's CSP for images plus the API's own origin: listing photos may be served by it over plain http (the demo). */
function embedCsp(publicUrl: string): string {
  const origin = new URL(publicUrl).origin;
  return PANEL_CSP.replace("img-src 'self'", `img-src 'self' ${origin}`);
}

async function embedPage(c: PanelContext, req: PanelRequest, { id }: Params): Promise<Answer> {
  const head = await c.store.facilityHead(id!);
  if (!head) return plain(404, 'No such facility.');
  const { options, problems } = readEmbedOptions(new URL(req.url, 'http://panel').searchParams);
  const keys = (await c.store.listKeys(id)).filter((k) => k.revoked_at === null);
  if (options.source !== '' && options.source !== 'snapshot' && !keys.some((k) => k.id === options.source))
    problems.push('source: a key of this facility or "snapshot"');
  const data = await c.store.facilityData(id!);
  const list = data ? listResponseOf(data, c.publicUrl, Date.now()) : undefined;
  const listed = list?.listings ?? [];
  const body = embedBody(c.tx, {
    cards: { all: listed.length, available: listed.filter((l) => l.free_units > 0).length },
    facilityHeader: list ? hasFacilityHeader(list.facility) : false,
    facilityId: id!,
    publicUrl: c.publicUrl,
    keyPrefix: c.keyPrefix,
    keys,
    options,
    problems,
  });
  const page = panelPage(c.tx, head.name, tabbed(c.tx, id!, 'embed', body), c.who, { scripts: [WIDGET_ASSET] });
  return htmlAnswer(page, problems.length ? 400 : 200, { 'content-security-policy': embedCsp(c.publicUrl) });
}

/** The list body as GET /external/listings answers it, with the two parameters the widget sends (available, sort). */
async function previewList(c: PanelContext, req: PanelRequest, { id }: Params): Promise<Answer> {
  const data = await c.store.facilityData(id!);
  if (!data) return problem(404, 'not_found', 'No such facility.');
  const params = new URL(req.url, 'http://panel').searchParams;
  const body = listResponseOf(data, c.publicUrl, Date.now());
  if (params.get('available') === 'true') body.listings = body.listings.filter((l) => l.free_units > 0);
  const sort = params.get('sort');
  if (isSortKey(sort)) body.listings = sortListings(body.listings, sort);
  return jsonAnswer(body);
}

/** One listing's Detail as GET /external/listings/{id} answers it. */
async function previewDetail(c: PanelContext, _req: PanelRequest, { id, listing: listingId }: Params): Promise<Answer> {
  const data = await c.store.facilityData(id!);
  const listing = data?.listings.find((l) => l.id === listingId);
  if (!data || !listing) return problem(404, 'not_found', 'No such listing.');
  return jsonAnswer(detailOf(listing, data, c.publicUrl, Date.now()));
}

/** A refusal in the API's problem shape, which the widget reads its code from. */
function problem(status: number, code: string, detail: string): Answer {
  const answer = jsonAnswer({ type: 'about:blank', title: detail, status, code, detail }, status);
  return { ...answer, headers: { ...answer.headers, 'content-type': 'application/problem+json' } };
}
