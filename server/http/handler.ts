// The request handler: a function from a request to an answer, testable without a socket. One top-level catch.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { redactSecrets } from '../domain/keys.ts';
import { REPO_ROOT } from '../repo.ts';
import type { Db } from '../store/db.ts';
import { requestLogger, type Logger } from '../logger.ts';
import { facilityRevisions, revisionsText } from '../store/facilities.ts';
import { Freshness, UNAVAILABLE_RETRY_AFTER_S } from '../freshness/freshness.ts';
import {
  DETAILS,
  header,
  MAX_URL_LENGTH,
  problem,
  type Answer,
  type RequestHandler,
  type RequestLike,
} from './transport/answer.ts';
import { CORS_HEADERS } from './transport/cors.ts';
import { API_PREFIX, ListingsApi, type ApiContext, type ApiOptions } from './api/api.ts';
import { openApiDocument } from './api/openapi.ts';
import { RateLimiter, type Limit } from './api/rate-limit.ts';
import { html, HTML_SECURITY_HEADERS, page } from './pages/html.ts';
import { DocsPage, REDOC_PATH } from './pages/docs.ts';
import { failedPage, RentalPages, RENT_PREFIX } from './pages/rental-page.ts';
import { StaticBody, StaticFiles } from './pages/static-files.ts';
import { healthOf } from './pages/health.ts';
import { clickAnswer, keptLocations, type ClickParts } from './pages/click-url.ts';
import { ClickCounter, type ClickSink } from './pages/click-counter.ts';
import { addressGroupOf } from '../domain/address-group.ts';
import { GO_PREFIX } from '../domain/referral.ts';
import { recordClicks } from '../store/referrals.ts';
import { keysDigest, unrevokedRefs } from '../store/keys.ts';
import { ViewsCache } from './views/views-cache.ts';
import { PageCache } from './views/page-cache.ts';
import { pathOf, Router, type Action, type Route, type RouterAnswers } from './router.ts';

/** An API route's answer to a GET. */
type Read = Action<ApiContext, Answer>;

export interface HandlerOptions extends Omit<ApiOptions, 'db'> {
  db: Db;
  /** Rental pages per client address: they need no key, so a client is known by its address alone. */
  pageLimit?: Limit;
  /** Rental pages rendered (not kept) per second from all clients together: what a crawl from many addresses gets. */
  pageRenderLimit?: Limit;
  /** Bytes of rental pages kept, apart from the facilities' views (cacheBudgetBytes). */
  pageCacheBytes?: number;
  /** Extra folders served under a URL prefix (the demo pages, exported snapshots). */
  mounts?: { prefix: string; dir: string; cacheControl?: string }[];
  /** Links shown on the index page. */
  links?: { href: string; label: string; note?: string }[];
  /** Milliseconds since the epoch, for which promotions are active; Date.now unless a test controls time. */
  clock?: () => number;
  /** Where counted clicks go instead of db (PostgreSQL, shared by every node). */
  recordClicks?: ClickSink;
  /** How often counted clicks are written. */
  clickIntervalMs?: number;
  /** When the data changed, shared with whoever confirms it (a node on PostgreSQL); one over `db` when not given. */
  freshness?: Freshness;
  /** Work to await before each batch (PostgreSQL's change-counter read into `freshness`). */
  beforeBatch?: (requests: number) => Promise<void>;
}

/** Bytes of rent targets kept for the click URL: about 100 bytes each, so some 20,000 listings. */
const CLICK_TARGET_BYTES = 2 * 1024 * 1024;

/** A person reads a few pages a minute; an office or a mobile network may put many people behind one address. */
export const DEFAULT_PAGE_LIMIT: Limit = { rate: 5, burst: 60 };
/**
 * Renders a second for everyone: a render (a store read and 0.5-1.5 ms of HTML, the most for long descriptions and
 * photo URLs) at this rate takes a tenth of a core at most, whatever number of addresses a crawl comes from, and no
 * burst more; kept pages are not counted.
 */
export const DEFAULT_PAGE_RENDER_LIMIT: Limit = { rate: 100, burst: 100 };

/** The request handler, with the caches it answers from and its click counter (tests and the bench read them). */
export interface Handler extends RequestHandler {
  views: ViewsCache;
  pages: PageCache;
  clicks: ClickCounter;
}

export function createHandler(opts: HandlerOptions): Handler {
  // One freshness check for the API's views and the rental pages, each cached apart, so that pages (no key needed)
  // never push out or rebuild what keyed requests use.
  const freshness = opts.freshness ?? new Freshness(opts.db);
  const views = new ViewsCache(opts.db, opts.publicUrl, opts.cacheBudgetBytes, opts.offLoopBytes, opts.clock);
  const pages = new PageCache(opts.db, opts.publicUrl, opts.pageCacheBytes, undefined, opts.clock);
  const targets = new PageCache(opts.db, opts.publicUrl, CLICK_TARGET_BYTES, undefined, opts.clock);
  const refs = new Map<string, ReadonlySet<string>>();
  freshness.onChangeOf(
    () => revisionsText(opts.db),
    () => {
      const revisions = facilityRevisions(opts.db);
      views.dropChanged(revisions);
      pages.dropChanged(revisions);
      targets.dropChanged(revisions);
    },
  );
  freshness.onChangeOf(
    () => keysDigest(opts.db),
    () => refs.clear(),
  );
  // Asked only for a facility whose listing was found, so there are never more entries than facilities.
  const refsOf = (facilityId: string) => {
    let known = refs.get(facilityId);
    if (!known) refs.set(facilityId, (known = unrevokedRefs(opts.db, facilityId)));
    return known;
  };
  const sink: ClickSink = opts.recordClicks ?? ((deltas, o) => recordClicks(opts.db, deltas, o));
  const clicks = new ClickCounter(sink, opts.clock, opts.clickIntervalMs, undefined, opts.logger);
  const api = new ListingsApi(opts, { freshness, views });
  const router = new Router(
    routesOf(opts, { api, freshness, pages, clicks: { targets, refsOf, clicks, locations: keptLocations() } }),
    API_ANSWERS,
  );
  // Decided once: a quiet logger costs the hot path neither a clock read nor a call per request.
  const requests = requestLogger(opts.logger);
  return {
    answer(req: RequestLike): Answer {
      const started = requests ? performance.now() : 0;
      const ctx: ApiContext = { requestId: randomUUID(), keyId: undefined };
      const answer = answerOf(router, req, ctx, opts.logger);
      return answer.later
        ? { ...answer, later: answer.later.then((a) => finish(req, a, ctx, started, requests)) }
        : finish(req, answer, ctx, started, requests);
    },
    batch: (fn) => api.batch(fn),
    close() {
      api.close();
      clicks.stop();
    },
    beforeBatch: opts.beforeBatch,
    refused(answer, { method, url, started }) {
      requests?.info(requestLine(answer.headers['x-request-id']!, method, url, answer.status, started, null));
    },
    views,
    pages,
    clicks,
  };
}

/** What the routes answer from. */
interface Parts {
  api: ListingsApi;
  freshness: Freshness;
  pages: PageCache;
  clicks: ClickParts;
}

/** Every path the server answers, and how. */
function routesOf(opts: HandlerOptions, { api, freshness, pages, clicks }: Parts): Route<ApiContext, Answer>[] {
  const widget = new StaticFiles(
    join(REPO_ROOT, 'dist', 'widget'),
    { ...CORS_HEADERS, 'cross-origin-resource-policy': 'cross-origin' },
    // The entry's name stays: revalidated after five minutes. A chunk's name holds its content's hash: kept a year.
    (path) =>
      path.startsWith('chunks/') ? 'public, max-age=31536000, immutable' : 'public, max-age=300, must-revalidate',
  );
  const assets = new StaticFiles(join(REPO_ROOT, 'server', 'assets'), {}, 'public, max-age=3600');
  const document = openApiDocument(opts.publicUrl);
  const openapi = new StaticBody(Buffer.from(JSON.stringify(document)), true);
  const openapiHeaders = {
    ...CORS_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'public, max-age=300',
  };
  const docsPage = new DocsPage(document);
  const docs: Read = (req) => docsPage.page(req);
  const pageLimiter = new RateLimiter('page');
  const pageLimit = opts.pageLimit ?? DEFAULT_PAGE_LIMIT;
  const renderLimiter = new RateLimiter('render');
  const renderLimit = opts.pageRenderLimit ?? DEFAULT_PAGE_RENDER_LIMIT;
  const mayRender = () => renderLimiter.take('', renderLimit).ok;
  const rentalPages = new RentalPages(pages);
  const rental: Read = (req, path) => {
    const limit = pageLimiter.take(addressGroupOf(req.remoteAddress), pageLimit);
    if (!limit.ok) return api.refused(limit, rentalPages.tooMany(limit.retryAfter, header(req, 'accept-language')));
    // Data that cannot be confirmed is refused as the API refuses it, as a page a renter can read.
    if (!freshness.check()) return rentalPages.unavailable(UNAVAILABLE_RETRY_AFTER_S, header(req, 'accept-language'));
    return rentalPages.page(req, path, mayRender);
  };
  // Clicks share the rental pages' limits: both need no key, and a rent link is a page a person opens.
  const click: Read = (req, path, search) => {
    const limit = pageLimiter.take(addressGroupOf(req.remoteAddress), pageLimit);
    if (!limit.ok) return api.refused(limit, rentalPages.tooMany(limit.retryAfter, header(req, 'accept-language')));
    if (!freshness.check()) return rentalPages.unavailable(UNAVAILABLE_RETRY_AFTER_S, header(req, 'accept-language'));
    return clickAnswer(clicks, req, path, search, mayRender);
  };
  const listings: Read = (req, path, search, ctx) => api.handle(req, path, search, ctx);
  const filesUnder = (prefix: string, files: StaticFiles): Route<ApiContext, Answer> => ({
    path: prefix,
    prefix: true,
    methods: {
      GET: (req, path) => {
        const rel = path.slice(prefix.length);
        return files.serve(req, rel === '' || rel.endsWith('/') ? rel + 'index.html' : rel);
      },
    },
  });
  return [
    { path: API_PREFIX, methods: { GET: listings } },
    { path: `${API_PREFIX}/`, prefix: true, methods: { GET: listings } },
    { path: RENT_PREFIX, prefix: true, methods: { GET: rental } },
    { path: GO_PREFIX, prefix: true, methods: { GET: click } },
    { path: '/', methods: { GET: () => indexPage(opts.links ?? []) } },
    { path: '/openapi.json', methods: { GET: (req) => openapi.answer(req, openapiHeaders) } },
    { path: '/docs', methods: { GET: docs } },
    { path: '/docs/', methods: { GET: docs } },
    { path: REDOC_PATH, methods: { GET: (req) => docsPage.redoc(req) } },
    { path: '/healthz', methods: { GET: () => healthOf(freshness) } },
    { path: '/favicon.ico', methods: { GET: (req) => assets.serve(req, 'favicon.svg') } },
    {
      path: '/widget/',
      prefix: true,
      methods: { GET: (req, path) => widget.serve(req, path.slice('/widget/'.length)) },
    },
    {
      path: '/assets/',
      prefix: true,
      methods: { GET: (req, path) => assets.serve(req, path.slice('/assets/'.length)) },
    },
    ...(opts.mounts ?? []).map((m) =>
      filesUnder(m.prefix, new StaticFiles(m.dir, CORS_HEADERS, m.cacheControl ?? 'no-cache')),
    ),
  ];
}

/** The API's own answers to an unknown path, another method and a CORS preflight. */
const API_ANSWERS: RouterAnswers<ApiContext, Answer> = {
  notFound: () => problem('not_found', 'There is nothing at this address.', CORS_HEADERS),
  notAllowed: (req, allow) =>
    problem('method_not_allowed', DETAILS.method_not_allowed(req.method), { ...CORS_HEADERS, allow }),
  options: (_req, allow) => ({ status: 204, headers: { ...CORS_HEADERS, allow }, body: null }),
};

/** The router's answer; an unexpected error becomes a 500 that names the request id, after it is logged. */
function answerOf(
  router: Router<ApiContext, Answer>,
  req: RequestLike,
  ctx: ApiContext,
  logger: Logger | undefined,
): Answer {
  try {
    if (req.url.length > MAX_URL_LENGTH)
      return problem('uri_too_long', DETAILS.uri_too_long(MAX_URL_LENGTH), CORS_HEADERS);
    return router.answer(req, ctx);
  } catch (err) {
    logger?.error({ ...requestFields(req, ctx), error: err }, 'unexpected failure');
    return failureAnswer(req, ctx);
  }
}

/** A 500 in its reader's form: a rental page or a rent link is a person's (an HTML page), the rest a program's. */
function failureAnswer(req: RequestLike, ctx: ApiContext): Answer {
  const path = pathOf(req.url);
  return path.startsWith(RENT_PREFIX) || path.startsWith(GO_PREFIX)
    ? failedPage(ctx.requestId, header(req, 'accept-language'))
    : problem('internal_error', DETAILS.internal_error(ctx.requestId), CORS_HEADERS);
}

/** What every answer carries, the body dropped for HEAD, and the request's line in the request log. */
function finish(
  req: RequestLike,
  answer: Answer,
  ctx: ApiContext,
  started: number,
  requests: Logger | undefined,
): Answer {
  const { headers, body } = answer;
  headers['x-request-id'] = ctx.requestId;
  headers['x-content-type-options'] = 'nosniff';
  if (body !== null)
    headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  if (req.method === 'HEAD') answer.body = null;
  requests?.info(requestLine(ctx.requestId, req.method, req.url, answer.status, started, ctx.keyId ?? null));
  return answer;
}

/** A request's line in the request log; method and target are null for a request refused before they were read. */
function requestLine(
  requestId: string,
  method: string | null,
  url: string | null,
  status: number,
  started: number,
  keyId: string | null,
) {
  return {
    request_id: requestId,
    method,
    path: url === null ? null : loggedPath(url),
    status,
    duration_ms: Math.round((performance.now() - started) * 1000) / 1000,
    key_id: keyId,
  };
}

/** A URL as the log shows it: the query dropped, keys redacted, a bounded length. */
const loggedPath = (url: string) => redactSecrets(pathOf(url)).slice(0, 200);

function indexPage(links: { href: string; label: string; note?: string }[]): Answer {
  const all = [
    ...links,
    { href: '/docs', label: 'API reference', note: 'the OpenAPI document, rendered' },
    { href: '/openapi.json', label: 'OpenAPI document', note: 'JSON' },
  ];
  const body = page(
    'storage-listings',
    html`<main>
      <h1>storage-listings</h1>
      <p>Live self-storage prices, free units and photos for partner sites.</p>
      <ul class="links">
        ${all.map((l) => html`<li><a href="${l.href}">${l.label}</a>${l.note ? html` — ${l.note}` : ''}</li>`)}
      </ul>
    </main>`,
  );
  return {
    status: 200,
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...HTML_SECURITY_HEADERS },
    body,
  };
}

/** What names a failed request in the log, as its request line does: id, method and path (query dropped, keys redacted). */
function requestFields(req: RequestLike, ctx: ApiContext) {
  return { request_id: ctx.requestId, method: req.method, path: loggedPath(req.url) };
}
