// /docs renders the served OpenAPI document in full (compared with /openapi.json, so they cannot drift), escaped; every
// HTML page has a meta description.
import { beforeAll, describe, expect, it } from 'vitest';
import { openApiDocument } from '../server/http/api/openapi.ts';
import { esc } from '../server/http/pages/html.ts';
import { renderDocs, type OpenApiDoc } from '../server/http/pages/docs.ts';
import { fetchVia } from './helpers/inject.ts';
import { useDemoHandler } from './helpers/setup.ts';

const METHODS = ['get', 'head', 'options', 'post', 'put', 'patch', 'delete'];

interface Parameter {
  name: string;
  in: string;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  responses: Record<string, unknown>;
}
type Document = { paths: Record<string, { parameters?: Parameter[] } & Record<string, unknown>> };

/** Each operation's section of the page, keyed by the id of its heading. */
function operationSections(page: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const part of page.split('<section class="operation"').slice(1)) {
    const id = /^ aria-labelledby="([^"]+)"/.exec(part)?.[1];
    if (id) sections.set(id, part.split('<section class="path"')[0]!.split('<section aria-labelledby="schemas"')[0]!);
  }
  return sections;
}

const demo = useDemoHandler();
const get = (path: string, init?: Parameters<ReturnType<typeof fetchVia>>[1]) => fetchVia(demo.handler)(path, init);
let doc: Document & { components: { schemas: Record<string, unknown> } };
let docs: Response;
let docsHtml: string;

beforeAll(async () => {
  doc = await (await get(`/openapi.json`)).json();
  docs = await get(`/docs`);
  docsHtml = await docs.text();
});

describe('/docs', () => {
  it('is a static HTML page: no script, a strict CSP, compressed and revalidated by ETag', async () => {
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(docs.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(docs.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(docsHtml).not.toMatch(/<script/i);
    expect(docsHtml).not.toContain('swagger');
    const etag = docs.headers.get('etag')!;
    expect((await get(`/docs`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const css = await get(`/assets/docs.css`);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('shows every path and operation of /openapi.json, with each parameter and response status', () => {
    const sections = operationSections(docsHtml);
    let operations = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      expect(docsHtml).toContain(`<code>${esc(path)}</code></h2>`);
      for (const method of METHODS.filter((m) => item[m])) {
        const op = item[method] as Operation;
        operations++;
        const section = sections.get(`op-${op.operationId}`);
        expect(section, `${method} ${path}`).toBeDefined();
        expect(section).toContain(`<span class="method">${method.toUpperCase()}</span> <code>${esc(path)}</code>`);
        for (const p of [...(item.parameters ?? []), ...(op.parameters ?? [])])
          expect(section, `${method} ${path} ${p.name}`).toContain(`<th scope="row"><code>${esc(p.name)}</code></th>`);
        for (const status of Object.keys(op.responses))
          expect(section, `${method} ${path} ${status}`).toContain(`<span class="status">${status}</span>`);
      }
    }
    expect(operations).toBe(6); // GET, HEAD and OPTIONS of both paths
    expect(sections.size).toBe(operations);
  });

  it('shows the key header, the examples and every component schema', () => {
    expect(docsHtml).toContain('<code>X-API-Key</code>');
    expect(docsHtml).toContain('<details>');
    expect(docsHtml).toContain(esc(JSON.stringify('SafeBox Wroclaw Centrum')));
    for (const name of Object.keys(doc.components.schemas))
      expect(docsHtml).toContain(`<h3 id="schema-${name}">${name}</h3>`);
  });

  it('has one h1, a lang, a skip link to main and a meta description', () => {
    expect(docsHtml.match(/<h1[ >]/g)).toHaveLength(1);
    expect(docsHtml).toMatch(/<html lang="en">/);
    expect(docsHtml).toContain('<a class="skip" href="#main">');
    expect(docsHtml).toContain('<main id="main">');
    expect(docsHtml).toMatch(/<meta name="description" content="[^"]{20,}">/);
  });

  it('escapes every string it takes from the document', () => {
    const hostile = '<img src=x onerror=alert(1)>"\'&';
    const base = openApiDocument('http://127.0.0.1:1') as unknown as OpenApiDoc & Document;
    const list = base.paths['/external/listings']!;
    const get = list.get as Operation & { summary: string; description: string };
    const evil = {
      ...base,
      info: { ...base.info, title: hostile, description: hostile },
      paths: {
        [`/x/${hostile}`]: {
          ...list,
          get: { ...get, summary: hostile, description: hostile, parameters: [{ name: hostile, in: 'query' }] },
        },
      },
    } as OpenApiDoc;
    const page = renderDocs(evil);
    expect(page).not.toContain('<img');
    expect(page).toContain(esc(hostile));
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
