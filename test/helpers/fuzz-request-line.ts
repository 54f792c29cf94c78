// The request line of a generated HTTP request: methods well-formed or not, and paths, every route the server has with
// the fuzz facilities' ids, respelled (escapes, dot segments, case, length), or random.
import fc from 'fast-check';
import { A, API, B } from './fuzz-world.ts';
import { SITE_PAGES } from './http.ts';

const HEX = '0123456789ABCDEFabcdef';
/** A header value or query of printable ASCII. */
export const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});
/** An HTTP token: a method or a header name. */
export const tokenChars = fc.string({
  unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-.^_`|~"),
  minLength: 1,
  maxLength: 20,
});

/** Methods: mostly GET, then the others the server knows of, wrongly spelled and random tokens. */
export const method = fc.oneof(
  { weight: 12, arbitrary: fc.constant('GET') },
  { weight: 3, arbitrary: fc.constantFrom('HEAD', 'OPTIONS') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'POST',
      'PUT',
      'DELETE',
      'PATCH',
      'TRACE',
      'PROPFIND',
      'SEARCH',
      'QUERY',
      'PURGE',
      'MKCOL',
      'LINK',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('get', 'Get', 'FOO', 'G ET', 'GET\t', '', 'CONNECT', 'PRI') },
  { weight: 1, arbitrary: tokenChars },
);

/** Every route the server has, with ids of both facilities, inactive listings and the rental pages. */
const knownPath = fc.oneof(
  { weight: 6, arbitrary: fc.constant(API) },
  {
    weight: 8,
    arbitrary: fc.constantFrom(...A.ids, ...B.ids, ...A.inactiveIds, ...B.inactiveIds).map((id) => `${API}/${id}`),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      `${API}/`,
      `${API}/lst_`,
      `${API}/lst_00000000000000000000`,
      '/external',
      '/external/',
      '/external/listingsX',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      ...SITE_PAGES,
      '/widget/storage-listings.js',
      '/assets/site.css',
      '/assets/docs.css',
      '/assets/favicon.svg',
      '/widget/',
      '/assets/',
    ),
  },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      ...[A, B].flatMap((f) => f.codes.map((c) => `/rent/${f.id}/${c}`)),
      `/rent/${A.id}/QXALPHA-off-0`,
      `/rent/${A.id}`,
      '/rent/',
      '/rent/x/y/z',
    ),
  },
);

/** Turns a path into another spelling of (maybe) the same thing: escapes, dot segments, slashes, case, unicode, length. */
const mutation = fc.oneof(
  fc.constant((p: string) => p),
  fc.constant((p: string) => p.replace(/[a-z_]/g, (c) => `%${c.charCodeAt(0).toString(16)}`)),
  fc.constant((p: string) => p.replace(/\//g, '%2F')),
  fc.constant((p: string) => p.replace('/listings', '/./listings')),
  fc.constant((p: string) => p.replace('/listings', '/x/../listings')),
  fc.constant((p: string) => `/${p}`),
  fc.constant((p: string) => p.replace(/\//g, '//')),
  fc.constant((p: string) => `${p}/`),
  fc.constant((p: string) => `${p}/..`),
  fc.constant((p: string) => `${p}%00`),
  fc.constant((p: string) => `${p};param=1`),
  fc.constant((p: string) => `${p}#frag`),
  fc.constant((p: string) => p.toUpperCase()),
  fc.constant((p: string) => `http://127.0.0.1${p}`),
  fc.constant((p: string) => `${p}/%2e%2e/%2e%2e/%2e%2e/package.json`),
  fc.constant((p: string) => `${p}/..%2f..%2f..%2fpackage.json`),
  fc.constant((p: string) => `${p}${'a'.repeat(2100)}`),
  fc.constant((p: string) => `${p}${'/b'.repeat(9000)}`),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).map((u) => (p: string) => `${p}${u}`),
  fc
    .string({ unit: 'grapheme', minLength: 1, maxLength: 8 })
    .map((u) => (p: string) => `${p}/${encodeURIComponent(u)}`),
  fc.tuple(fc.constantFrom(...HEX, 'G', 'z', '%', ''), fc.constantFrom(...HEX, 'G', '')).map(
    ([x, y]) =>
      (p: string) =>
        `${p}%${x}${y}`,
  ),
  fc.nat({ max: 40 }).map((n) => (p: string) => p.slice(0, n)),
);

const randomPath = fc.oneof(
  fc.webPath(),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => `/${s}`),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }).map((s) => `/${s}`),
  fc.webSegment().map((s) => `${API}/${s}`),
);

/** A request target's path: mostly a known route, respelled, sometimes anything at all. */
export const requestPath = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(knownPath, mutation).map(([p, m]) => m(p)) },
  { weight: 1, arbitrary: randomPath },
);
