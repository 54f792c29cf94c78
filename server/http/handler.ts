// The request handler: a function from a request to an answer, testable without a socket. One top-level catch.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { redactSecrets } from '../domain/keys.ts';
import { REPO_ROOT } from '../repo.ts';
import type { Db } from '../store/db.ts';
import {
  ALLOWED_METHODS,
  DETAILS,
  HttpProblem,
  MAX_URL_LENGTH,
  problem,
  type Answer,
  type RequestHandler,
  type RequestLike,
} from './transport/answer.ts';
import { ListingsApi, type ApiContext, type ApiOptions } from './api/api.ts';
import { CORS_HEADERS } from './transport/cors.ts';
import { html, HTML_SECURITY_HEADERS, page } from './pages/html.ts';
import { docsPage } from './pages/docs.ts';
import { openApiDocument } from './api/openapi.ts';
import { nextRequestId } from './transport/request-id.ts';
import { rentalPage, RENT_PREFIX, tooManyPages, unavailablePage } from './pages/rental-page.ts';
import { RateLimiter, type Limit } from './api/rate-limit.ts';
import { StaticBody, StaticFiles } from './pages/static-files.ts';
import { healthOf } from './pages/health.ts';
import { Freshness, UNAVAILABLE_RETRY_AFTER_S } from '../freshness/freshness.ts';
import { facilityRevisions } from '../store/facilities.ts';
import type { RequestLogger } from './transport/log.ts';
import { ViewsCache } from './views/views-cache.ts';
import { PageCache } from './views/page-cache.ts';

export interface HandlerOptions extends Omit<ApiOptions, 'db'> {
  db: Db;
  /** Rental pages per client address: they need no key, so a client is known by its address alone. */
  pageLimit?: Limit;
  /** Bytes of rental pages kept, apart from the facilities' views (cacheBudgetBytes). */
  pageCacheBytes?: number;
  /** Extra folders served under a URL prefix (the demo pages, exported snapshots). */
  mounts?: { prefix: string; dir: string; cacheControl?: string }[];
  /** Links shown on the index page. */
  links?: { href: string; label: string; note?: string }[];
  /** Where errors are logged. */
  log?: (entry: Record<string, unknown>) => void;
  /** Where each answered request is recorded (the request log). */
  logRequest?: RequestLogger;
  /** Milliseconds since the epoch, for which promotions are active; Date.now unless a test controls time. */
  clock?: () => number;
}

/** A person reads a few pages a minute; an office or a mobile network may put many people behind one address. */
export const DEFAULT_PAGE_LIMIT: Limit = { rate: 5, burst: 60 };

/** The request handler, with the API it routes to and the rental pages' cache (tests and the bench read the caches). */
export interface Handler extends RequestHandler {
  api: ListingsApi;
  pages: PageCache;
}

export function createHandler(opts: HandlerOptions): Handler {
  // The app's parts: one freshness check for the API's views and the rental pages, each cached apart, so that pages
  // (no key needed) never push out or rebuild what keyed requests use.
  const freshness = new Freshness(opts.db);
  const views = new ViewsCache(opts.db, opts.publicUrl, opts.cacheBudgetBytes, opts.offLoopBytes, opts.clock);
  const pages = new PageCache(opts.db, opts.publicUrl, opts.pageCacheBytes, undefined, opts.clock);
  freshness.onChange(() => {
    const revisions = facilityRevisions(opts.db);
    views.dropChanged(revisions);
    pages.dropChanged(revisions);
  });
  const api = new ListingsApi(opts, { freshness, views });
  const pageLimiter = new RateLimiter('page');
  const pageLimit = opts.pageLimit ?? DEFAULT_PAGE_LIMIT;
  const widget = new StaticFiles(
    join(REPO_ROOT, 'dist', 'widget'),
    { ...CORS_HEADERS, 'cross-origin-resource-policy': 'cross-origin' },
    'public, max-age=300, must-revalidate',
  );
  const assets = new StaticFiles(join(REPO_ROOT, 'server', 'assets'), {}, 'public, max-age=3600');
  const mounts = (opts.mounts ?? []).map((m) => ({
    prefix: m.prefix,
    files: new StaticFiles(m.dir, CORS_HEADERS, m.cacheControl ?? 'no-cache'),
  }));
  const document = openApiDocument(opts.publicUrl);
  const openapi = new StaticBody(Buffer.from(JSON.stringify(document)), true);
  const docs = docsPage(document);
  const openapiHeaders = Object.freeze({
    ...CORS_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'public, max-age=300',
  });

  const route = (req: RequestLike, ctx: ApiContext): Answer => {
    if (req.url.length > MAX_URL_LENGTH)
      return problem('uri_too_long', DETAILS.uri_too_long(MAX_URL_LENGTH), CORS_HEADERS);
    const path = pathOf(req.url);
    const search = req.url.slice(path.length);
    if (api.handles(path)) return api.handle(req, path, search, ctx);
    if (req.method === 'OPTIONS')
      return { status: 204, headers: { ...CORS_HEADERS, allow: ALLOWED_METHODS }, body: null };
    const readOnly = req.method === 'GET' || req.method === 'HEAD';
    const found = readOnly ? serveRead(req, path) : undefined;
    if (found) return found;
    if (!readOnly && isKnownPath(path))
      return problem('method_not_allowed', `${req.method} is not allowed here.`, {
        ...CORS_HEADERS,
        allow: ALLOWED_METHODS,
      });
    return problem('not_found', 'There is nothing at this address.', CORS_HEADERS);
  };

  const isKnownPath = (path: string) =>
    path === '/' ||
    path === '/openapi.json' ||
    path === '/docs' ||
    path === '/healthz' ||
    path === '/favicon.ico' ||
    path.startsWith(RENT_PREFIX) ||
    path.startsWith('/widget/') ||
    path.startsWith('/assets/') ||
    mounts.some((m) => path.startsWith(m.prefix));

  const serveRead = (req: RequestLike, path: string): Answer | undefined => {
    if (path === '/openapi.json') {
      return openapi.answer(req, openapiHeaders);
    }
    if (path === '/favicon.ico') return assets.serve(req, 'favicon.svg');
    if (path === '/healthz') return healthOf(freshness);
    if (path === '/docs' || path === '/docs/') return docs(req);
    if (path === '/') return indexPage(opts.links ?? []);
    if (path.startsWith(RENT_PREFIX)) {
      const limit = pageLimiter.take(req.remoteAddress, pageLimit);
      if (!limit.ok) return api.refused(limit, tooManyPages(limit.retryAfter));
      // Data that cannot be confirmed is refused as the API refuses it, as a page a renter can read.
      if (!freshness.fresh) return unavailablePage(UNAVAILABLE_RETRY_AFTER_S);
      freshness.check();
      return rentalPage(pages, path);
    }
    if (path.startsWith('/widget/')) return widget.serve(req, path.slice('/widget/'.length));
    if (path.startsWith('/assets/')) return assets.serve(req, path.slice('/assets/'.length));
    for (const m of mounts) {
      if (path.startsWith(m.prefix)) {
        const rel = path.slice(m.prefix.length);
        return m.files.serve(req, rel === '' || rel.endsWith('/') ? rel + 'index.html' : rel);
      }
    }
    return undefined;
  };

  const { logRequest } = opts;
  const finish = (req: RequestLike, answer: Answer, ctx: ApiContext, started: number): Answer => {
    const { requestId } = ctx;
    // A header list (the API's and the rental pages' answers) carries its own content-length.
    if (Array.isArray(answer.headers))
      answer.headers.push('x-request-id', requestId, 'x-content-type-options', 'nosniff');
    else {
      answer.headers['x-request-id'] = requestId;
      answer.headers['x-content-type-options'] = 'nosniff';
      if (answer.body !== null)
        answer.headers['content-length'] = String(
          typeof answer.body === 'string' ? Buffer.byteLength(answer.body) : answer.body.length,
        );
    }
    if (req.method === 'HEAD') answer.body = null;
    logRequest?.(
      requestId,
      req.method,
      redactSecrets(pathOf(req.url)).slice(0, 200),
      answer.status,
      Math.round((performance.now() - started) * 1000) / 1000,
      ctx.keyId,
    );
    return answer;
  };

  const handler = ((req: RequestLike): Answer => {
    const started = logRequest ? performance.now() : 0;
    const requestId = nextRequestId();
    const ctx: ApiContext = { requestId, keyId: undefined };
    let answer: Answer;
    try {
      answer = route(req, ctx);
    } catch (err) {
      if (err instanceof HttpProblem) answer = problem(err.code, err.detail, { ...CORS_HEADERS, ...err.headers });
      else {
        opts.log?.({ level: 'error', request_id: requestId, error: (err as Error).stack ?? String(err) });
        answer = problem('internal_error', DETAILS.internal_error(requestId), CORS_HEADERS);
      }
    }
    return answer.later
      ? { ...answer, later: answer.later.then((a) => finish(req, a, ctx, started)) }
      : finish(req, answer, ctx, started);
  }) as Handler;
  handler.api = api;
  handler.pages = pages;
  handler.batch = (fn) => api.batch(fn);
  handler.close = () => api.close();
  return handler;
}

/** The URL without its query: no URL parsing, as the request line's target is already origin-form. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

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
