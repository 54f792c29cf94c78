// The test runner's stand-in for the server: the contract's two API routes (ETag and 304, 401, 429 with Retry-After,
// dropped connections), snapshot files, photos, a rental page, a strict-CSP page and a page under the README's CSP.
// Every test puts its own token in the path (`/api/<scenario>/<token>/external/...`), so its request log and state
// belong to it alone.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tsImport } from 'tsx/esm/api';
import {
  absolutize,
  API_KEY,
  fixtures,
  listResponseOf,
  PARTNER_REF,
  problemOf,
  RLO_TERMS_FACILITY,
  TERMS_FACILITY,
} from './fixtures.js';
import { articlePage, slowModule } from './article.js';
import { cacheControlOf, snapshotFile } from './snapshots.js';

// The API's own sort comparators (TypeScript, so loaded through tsx: this file runs in the test runner's plain Node).
const { isSortKey, sortListings } = await tsImport('../../../shared/sort.ts', import.meta.url);

/** token -> { log, version, healed, broken, reversed, revoked } */
const sessions = new Map();
function session(token) {
  if (!sessions.has(token)) sessions.set(token, { log: [], version: 0, healed: false, broken: false });
  return sessions.get(token);
}

function send(ctx, status, body, headers = {}) {
  if (status === 404) {
    // A deliberate 404, answered by hand: the test runner reports every request that ends with status 404 as a
    // missing file, so once the answer is sent, koa is told another status (which never reaches the wire).
    ctx.respond = false;
    ctx.res.writeHead(404, headers);
    ctx.res.end(body);
    ctx.res.statusCode = 204;
    return;
  }
  ctx.status = status;
  if (body !== undefined) ctx.body = body;
  ctx.set(headers);
}

function problem(ctx, status, code, headers = {}) {
  send(ctx, status, JSON.stringify(problemOf(status, code)), {
    'Content-Type': 'application/problem+json',
    ...headers,
  });
}

/**
 * The scenario's listings as this session sees them: each bump sells one more unit of the first listing (and, in
 * `many`, gives it another cover photo); once reversed, in the opposite order.
 */
function listingsOf(scenario, state, origin) {
  const fixture = fixtures[scenario] ?? fixtures.basic; // slow, down, ratelimited: the basic listings
  const base = state.reversed ? [...fixture].reverse() : fixture;
  return base.map((l, i) => {
    if (i !== 0 || !state.version) return absolutize(l, origin);
    const changed = { ...l, free_units: Math.max(0, l.free_units - state.version) };
    if (scenario === 'many') {
      const photo = { url: '/img/locker.svg', caption: 'Locker', width: 400, height: 300 };
      Object.assign(changed, { photos: [photo], cover_photo: { url: photo.url, caption: photo.caption } });
    }
    return absolutize(changed, origin);
  });
}

/** The facility a list answer carries: the `terms` scenarios' own, else the basic one. */
function facilityOf(scenario) {
  if (scenario === 'terms-rlo') return RLO_TERMS_FACILITY;
  return scenario.startsWith('terms') ? TERMS_FACILITY : undefined;
}

function failure(ctx, scenario, state) {
  if (state.broken || (scenario === 'down' && !state.healed)) {
    ctx.respond = false; // the connection drops without an answer: fetch rejects with a TypeError
    ctx.status = 204; // only koa's bookkeeping (the runner reports koa 404s as missing files); nothing is sent
    ctx.req.socket.destroy();
    return true;
  }
  if (scenario === 'ratelimited' && !state.healed) {
    problem(ctx, 429, 'rate_limited', { 'Retry-After': '1' });
    return true;
  }
  return false;
}

async function api(ctx, scenario, token, id) {
  const state = session(token);
  const entry = {
    path: ctx.path.replace(`/api/${scenario}/${token}`, ''),
    query: ctx.querystring,
    key: ctx.get('X-API-Key') || null,
    ifNoneMatch: ctx.get('If-None-Match') || null,
    status: 0,
  };
  state.log.push(entry);
  if (scenario === 'slow' || token.startsWith('late')) await new Promise((resolve) => setTimeout(resolve, 700));
  if (failure(ctx, scenario, state)) {
    entry.status = ctx.respond === false ? 0 : ctx.status;
    return;
  }
  const common = { 'Cache-Control': 'private, no-cache', Vary: 'X-API-Key, Origin', 'X-Request-Id': `req_${token}` };
  // The key's partner reference, as the API names it on every keyed answer (the 'partner' scenario's key has one).
  if (scenario === 'partner') common['X-Partner-Ref'] = PARTNER_REF;
  if (!entry.key) return problem(ctx, (entry.status = 401), 'missing_api_key', common);
  if (entry.key !== API_KEY) return problem(ctx, (entry.status = 401), 'invalid_api_key', common);
  if (state.revoked) return problem(ctx, (entry.status = 401), 'revoked_api_key', common);
  // A key restricted to other origins: the refusal names the request's origin in its CORS, as the API's does.
  if (scenario === 'origin') {
    const refused = { ...common, 'Access-Control-Allow-Origin': ctx.get('Origin') || ctx.origin };
    return problem(ctx, (entry.status = 403), 'origin_not_allowed', refused);
  }

  let listings = listingsOf(scenario, state, ctx.origin);
  let body;
  if (id) {
    const detail = listings.find((l) => l.id === id);
    if (!detail) return problem(ctx, (entry.status = 404), 'not_found', common);
    body = JSON.stringify(detail);
  } else {
    if (ctx.query.available === 'true') listings = listings.filter((l) => l.free_units > 0);
    if (isSortKey(ctx.query.sort)) listings = sortListings(listings, ctx.query.sort);
    body = JSON.stringify(listResponseOf(listings, facilityOf(scenario)));
  }
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  if (ctx.get('If-None-Match') === etag) return send(ctx, (entry.status = 304), undefined, { ...common, ETag: etag });
  send(ctx, (entry.status = 200), body, { ...common, 'Content-Type': 'application/json', ETag: etag });
}

function image(name) {
  const hue = [...name].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="hsl(${hue} 40% 70%)"/></svg>`;
}

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "style-src 'self'",
  "require-trusted-types-for 'script'",
  'trusted-types lit-html',
].join('; ');

const cspPage = (token) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>storage-listings under a strict CSP</title>
    <script src="/csp/listener.js"></script>
    <script type="module" src="/widget/src/define.ts"></script>
  </head>
  <body>
    <storage-listings src="/snap/valid/listings.json?t=${token}" keys-url="/snap/keys.json"></storage-listings>
    <storage-listings api-key="${API_KEY}" api-base="/api/hostile/${token}"></storage-listings>
  </body>
</html>`;

/**
 * The Content-Security-Policy docs/widget.md recommends for pages that embed the widget ("Security"), with its example
 * hosts (and `https:`) replaced by this test server's origin, so the test holds the docs' claim.
 */
function readmeCsp() {
  const docs = readFileSync(new URL('../../../docs/widget.md', import.meta.url), 'utf8');
  const block = /strict Content-Security-Policy[^`]*```\n([\s\S]*?)\n```/.exec(docs)?.[1];
  if (!block?.includes("require-trusted-types-for 'script'"))
    throw new Error('docs/widget.md: no recommended CSP found');
  return block.replace(/\s+/g, ' ').replace(/https:(\/\/[\w.-]+)?/g, "'self'");
}
const README_CSP = readmeCsp();

/**
 * The README's CSP page; `bundle`: the built module with its chunks, and every part on demand (header, JSON-LD);
 * `ver`: the module named with a query string, as WordPress names scripts (`?ver=6.4.2`); `twice`: another copy of
 * the widget after it (the sources, with a Lit of their own), as two snippets of two versions bring.
 */
const readmePage = (token, bundle, ver, twice) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>storage-listings under the README's CSP</title>
    <script src="/csp/listener.js"></script>
    <script type="module" src="${bundle ? '/dist/widget/storage-listings.js' : '/widget/src/define.ts'}${ver ? `?ver=${ver}` : ''}"></script>${
      twice ? '\n    <script type="module" src="/csp/second-copy.js"></script>' : ''
    }
  </head>
  <body>
    <storage-listings api-key="${API_KEY}" api-base="/api/${bundle ? 'terms' : 'basic'}/${token}" locale="en" structured-data${bundle ? ' show-facility' : ''}></storage-listings>
  </body>
</html>`;

// A plain host page with one live widget: framed at a given width, its frame is the viewport of a phone or a desktop.
const hostPage = (token) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>storage-listings on a plain page</title>
    <script type="module" src="/widget/src/define.ts"></script>
  </head>
  <body>
    <storage-listings api-key="${API_KEY}" api-base="/api/basic/${token}" locale="en"></storage-listings>
  </body>
</html>`;

// Runs before any module, under the page's CSP: collects every violation and every uncaught error for the test to read.
const cspListener = `window.__violations = [];
window.__errors = [];
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
window.addEventListener('error', (e) => window.__errors.push(String(e.message)));
window.addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)));`;

// Another copy of the widget (the sources, with a Lit of their own): window.__secondCopy says whether it ran.
const secondCopy = `import('/widget/src/define.ts').then(
  () => (window.__secondCopy = 'ran'),
  (e) => (window.__secondCopy = String(e)),
);`;

/** Koa middleware for @web/test-runner's `middleware` option. */
export function fakeApi() {
  return async function fakeApiMiddleware(ctx, next) {
    const path = ctx.path;
    let m;
    if ((m = /^\/api\/([\w-]+)\/([\w-]+)\/external\/listings(?:\/([^/]+))?$/.exec(path))) {
      return api(ctx, m[1], m[2], m[3] && decodeURIComponent(m[3]));
    }
    if ((m = /^\/__test\/([\w-]+)\/(log|bump|heal|break|reverse|revoke)$/.exec(path))) {
      const state = session(m[1]);
      if (m[2] === 'revoke') state.revoked = true;
      if (m[2] === 'reverse') state.reversed = true;
      if (m[2] === 'bump') state.version += 1;
      if (m[2] === 'heal') state.healed = true;
      if (m[2] === 'break') state.broken = true;
      return send(ctx, 200, JSON.stringify(state.log), {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
      });
    }
    if ((m = /^\/__test\/([\w-]+)\/cache-probe$/.exec(path))) {
      // Fresh for ten minutes: a browser with an HTTP cache answers a second fetch from it, and this count stays at 1.
      const state = session(m[1]);
      state.probes = (state.probes ?? 0) + 1;
      return send(ctx, 200, String(state.probes), {
        'Content-Type': 'application/json',
        'Cache-Control': 'max-age=600',
      });
    }
    if ((m = /^\/__test\/fixtures\/([\w-]+)$/.exec(path)) && fixtures[m[1]]) {
      const listings = fixtures[m[1]].map((l) => absolutize(l, ctx.origin));
      return send(ctx, 200, JSON.stringify(listings), { 'Content-Type': 'application/json' });
    }
    if ((m = /^\/snap\/(?:@([\w-]+)\/)?(.*)$/.exec(path))) {
      // The token in the query (`?t=`), or in the path (`/snap/@<token>/...`) where URLs resolved against the
      // snapshot's (a version's signature) must carry it too: its own log, and its own HTTP cache entries.
      const file = snapshotFile(ctx.origin, `/snap/${m[2]}`);
      const token = m[1] ?? ctx.query.t;
      if (String(token).startsWith('late') && m[2].endsWith('.json')) await new Promise((r) => setTimeout(r, 700));
      const status = typeof file === 'number' ? file : file ? 200 : 404;
      if (typeof token === 'string') session(token).log.push({ path: `/snap/${m[2]}`, query: ctx.querystring, status });
      if (status !== 200) return problem(ctx, status, status === 404 ? 'not_found' : 'unavailable');
      return send(ctx, 200, file, { 'Content-Type': 'application/json', 'Cache-Control': cacheControlOf(m[2]) });
    }
    if ((m = /^\/img\/([\w-]+)\.svg$/.exec(path))) {
      return send(ctx, 200, image(m[1]), { 'Content-Type': 'image/svg+xml', 'Cache-Control': 'max-age=3600' });
    }
    if (path.startsWith('/rent/')) {
      return send(ctx, 200, `<!doctype html><title>Rent</title><h1>Rental page ${path}</h1>`, {
        'Content-Type': 'text/html',
      });
    }
    if (path === '/csp/page.html' && /^[\w-]+$/.test(String(ctx.query.t))) {
      return send(ctx, 200, cspPage(ctx.query.t), { 'Content-Type': 'text/html', 'Content-Security-Policy': CSP });
    }
    if (path === '/csp/readme.html' && /^[\w-]+$/.test(String(ctx.query.t))) {
      const ver = /^[\w.]+$/.test(String(ctx.query.ver)) ? ctx.query.ver : undefined;
      // With `ver`, Trusted Types without 'allow-duplicates': a second copy of the module would throw creating Lit's policy.
      const csp = ver ? README_CSP.replace(" 'allow-duplicates'", '') : README_CSP;
      return send(ctx, 200, readmePage(ctx.query.t, ctx.query.bundle === '1', ver, ctx.query.twice === '1'), {
        'Content-Type': 'text/html',
        'Content-Security-Policy': csp,
      });
    }
    if (path === '/host/page.html' && /^[\w-]+$/.test(String(ctx.query.t))) {
      return send(ctx, 200, hostPage(ctx.query.t), { 'Content-Type': 'text/html' });
    }
    if (path === '/host/article.html' && /^[\w-]+$/.test(String(ctx.query.t)) && /^[\w-]+$/.test(String(ctx.query.w))) {
      return send(ctx, 200, articlePage(ctx.query.t, ctx.query.w), { 'Content-Type': 'text/html' });
    }
    if ((m = /^\/slow-module\/((?:chunks\/)?[\w-]+(?:\.[\w-]+)*\.js)$/.exec(path))) {
      const file = await slowModule(m[1]);
      if (file) return send(ctx, 200, file, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' });
    }
    if (path === '/csp/listener.js') return send(ctx, 200, cspListener, { 'Content-Type': 'text/javascript' });
    if (path === '/csp/second-copy.js') return send(ctx, 200, secondCopy, { 'Content-Type': 'text/javascript' });
    return next();
  };
}
