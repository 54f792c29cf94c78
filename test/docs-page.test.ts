// /docs: a small page that loads Redoc and its own script from this server under a strict CSP, with the curl samples of
// /openapi.json and a key field that is never sent; the Redoc bundle cached for long by its versioned URL. Every HTML
// page has a meta description.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DocsPage, REDOC_PATH, type OpenApiDoc } from '../server/http/pages/docs.ts';
import { esc } from '../server/http/pages/html.ts';
import { REPO_ROOT } from '../server/repo.ts';
import { fetchVia } from './helpers/inject.ts';
import { useDemoHandler } from './helpers/setup.ts';

type Document = OpenApiDoc & {
  paths: Record<string, { get: { summary: string; 'x-codeSamples': { source: string }[] } }>;
};

const VERSION = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules/redoc/package.json'), 'utf8')).version;
const demo = useDemoHandler();
const get = (path: string, init?: Parameters<ReturnType<typeof fetchVia>>[1]) => fetchVia(demo.handler)(path, init);
let doc: Document;
let docs: Response;
let docsHtml: string;

beforeAll(async () => {
  doc = await (await get(`/openapi.json`)).json();
  docs = await get(`/docs`);
  docsHtml = await docs.text();
});

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

describe('/docs', () => {
  it("loads only this server's scripts, under a CSP with no inline or eval'd script, revalidated by ETag", async () => {
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = directives(docs.headers.get('content-security-policy')!);
    expect(csp.get('default-src')).toEqual(["'none'"]);
    expect(csp.get('script-src')).toEqual(["'self'"]);
    expect(csp.get('connect-src')).toEqual(["'self'"]);
    expect(csp.has('worker-src')).toBe(false);
    const scripts = [...docsHtml.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts).toEqual([` src="${REDOC_PATH}?v=${VERSION}" defer`, ' src="/assets/docs.js" defer']);
    expect(docsHtml).not.toMatch(/(src|href)="(https?:)?\/\//);
    const etag = docs.headers.get('etag')!;
    expect((await get(`/docs`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    for (const path of ['/assets/docs.js', '/assets/docs.css']) expect((await get(path)).status, path).toBe(200);
  });

  it('serves the Redoc bundle from this server, cached for a year by its versioned URL, with an ETag', async () => {
    const bundle = await get(`${REDOC_PATH}?v=${VERSION}`, { headers: { 'accept-encoding': 'br' } });
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(bundle.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(bundle.headers.get('content-encoding')).toBe('br');
    expect((await bundle.arrayBuffer()).byteLength).toBeLessThan(400_000);
    const text = await (await get(REDOC_PATH)).text();
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(text).toContain('Redoc');
    expect(text).not.toContain('cdn.redoc.ly/redoc/logo');
    const etag = bundle.headers.get('etag')!;
    const again = await get(REDOC_PATH, { headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it("shows each GET's curl sample from the document, its key a placeholder the page's script fills in", () => {
    const samples = Object.values(doc.paths).map((p) => p.get['x-codeSamples'][0]!.source);
    expect(samples).toHaveLength(2);
    for (const source of samples) {
      const parts = source.split('$LISTINGS_KEY').map(esc);
      expect(docsHtml).toContain(`<code class="sample">${parts.join('<span class="key">$LISTINGS_KEY</span>')}</code>`);
    }
    for (const p of Object.values(doc.paths)) expect(docsHtml).toContain(`<h3>${esc(p.get.summary)}</h3>`);
  });

  it('takes the key in a password field that nothing fills or remembers, outside any form', () => {
    expect(docsHtml).toMatch(/<input id="api-key" type="password" autocomplete="off"/);
    expect(docsHtml).toContain('<label for="api-key">');
    expect(docsHtml).not.toContain('<form');
  });

  it('links the OpenAPI document for a browser without script', () => {
    const noscript = /<noscript>([\s\S]*)<\/noscript>/.exec(docsHtml)![1]!;
    expect(noscript).toContain('<a href="/openapi.json">');
  });

  it('has one h1, a lang, a skip link to the reference', () => {
    expect(docsHtml.match(/<h1[ >]/g)).toHaveLength(1);
    expect(docsHtml).toMatch(/<html lang="en">/);
    expect(docsHtml).toContain('<a class="skip" href="#reference">');
    expect(docsHtml).toContain('<main id="reference">');
  });

  it('escapes every string it takes from the document', () => {
    const hostile = '<img src=x onerror=alert(1)>"\'&';
    const evil = {
      info: { title: hostile },
      paths: { x: { get: { summary: hostile, 'x-codeSamples': [{ source: `${hostile} $LISTINGS_KEY ${hostile}` }] } } },
    };
    const page = new DocsPage(evil).page({ method: 'GET', url: '/docs', headers: {}, remoteAddress: '::1' });
    const text = String(page.body);
    expect(text).not.toContain('<img');
    expect(text).toContain(esc(hostile));
  });
});

describe('every HTML page has a meta description', () => {
  it.each(['/', '/docs', '/rent/wro-1/M-07', '/rent/wro-1/NOPE'])('%s', async (path) => {
    const r = await get(`${path}`);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await r.text()).toMatch(/<meta name="description" content="[^"]{20,}">/);
  });

  it("the rental page's names the unit and the facility", async () => {
    const page = await (await get(`/rent/wro-1/M-07`)).text();
    const description = /<meta name="description" content="([^"]+)">/.exec(page)![1]!;
    expect(description).toContain('SafeBox');
  });
});
