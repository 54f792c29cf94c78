// The API reference at /docs: the OpenAPI document rendered once as static, accessible HTML, with no script to load.
import type { Answer, RequestLike } from '../transport/answer.ts';
import { anchorOf, isObject, prose, renderSchema, tableOf, typeOf, type JsonSchema } from './docs-schema.ts';
import { Html, html, HTML_SECURITY_HEADERS, page } from './html.ts';
import { StaticBody } from './static-files.ts';

/** The parts of an OpenAPI 3.1 document this page reads; everything else in the document is left out. */
export interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  servers?: readonly { url: string }[];
  security?: readonly Record<string, readonly string[]>[];
  paths: Record<string, PathItem>;
  components?: { securitySchemes?: Record<string, SecurityScheme>; schemas?: Record<string, JsonSchema> };
}
// Parameter lists are unknown[] here because openapi.ts builds some of them untyped; isParameter() reads them.
interface PathItem {
  parameters?: readonly unknown[];
  [method: string]: Operation | readonly unknown[] | undefined;
}
interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: readonly unknown[];
  parameters?: readonly unknown[];
  responses: Record<string, Response>;
}
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}
interface Response {
  description: string;
  headers?: Record<string, { description?: string; schema?: JsonSchema }>;
  content?: Record<string, { schema?: JsonSchema; example?: unknown; examples?: Record<string, { value: unknown }> }>;
}
interface SecurityScheme {
  type: string;
  in?: string;
  name?: string;
  description?: string;
}

const METHODS = ['get', 'head', 'options', 'post', 'put', 'patch', 'delete'] as const;
const DESCRIPTION =
  'Reference of the External Listings API: endpoints, parameters, responses with examples, and schemas.';

/** Answers /docs from HTML rendered once per server, compressed and with an ETag like any static file. */
export function docsPage(doc: OpenApiDoc): (req: RequestLike) => Answer {
  const body = new StaticBody(Buffer.from(renderDocs(doc)), true);
  const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...HTML_SECURITY_HEADERS };
  return (req) => body.answer(req, headers);
}

export function renderDocs(doc: OpenApiDoc): string {
  const paths = Object.entries(doc.paths);
  const schemas = Object.entries(doc.components?.schemas ?? {});
  const body = html`<a class="skip" href="#main">Skip to content</a>
    <header class="docs-header">
      <h1>${doc.info.title}</h1>
      <p class="version">Version ${doc.info.version} · OpenAPI document: <a href="/openapi.json">/openapi.json</a></p>
    </header>
    <div class="docs">
      <nav aria-label="Contents">
        <h2 id="contents">Contents</h2>
        <ul>
          <li><a href="#authentication">Authentication</a></li>
          ${paths.map(
            ([path, item]) =>
              html`<li>
                <a href="#${anchorOf('path', path)}"><code>${path}</code></a>
                <ul>
                  ${operationsOf(item).map(
                    ([method, op]) =>
                      html`<li><a href="#${operationAnchor(path, method, op)}">${method.toUpperCase()}</a></li>`,
                  )}
                </ul>
              </li>`,
          )}
          ${schemas.length ? html`<li><a href="#schemas">Schemas</a></li>` : ''}
        </ul>
      </nav>
      <main id="main">
        ${doc.info.description ? html`<p class="lead">${prose(doc.info.description)}</p>` : ''}
        ${
          doc.servers?.length
            ? html`<p>Base URL: ${doc.servers.map((s, i) => html`${i ? ', ' : ''}<code>${s.url}</code>`)}</p>`
            : ''
        }
        <section aria-labelledby="authentication">
          <h2 id="authentication">Authentication</h2>
          ${Object.entries(doc.components?.securitySchemes ?? {}).map(
            ([name, s]) =>
              html`<p>
                <strong>${name}</strong>:
                ${s.type === 'apiKey' ? html`send the <code>${s.name}</code> ${s.in}` : s.type}.
                ${s.description ? prose(s.description) : ''}
              </p>`,
          )}
        </section>
        ${paths.map(([path, item]) => renderPath(doc, path, item))}
        ${
          schemas.length
            ? html`<section aria-labelledby="schemas">
                <h2 id="schemas">Schemas</h2>
                ${schemas.map(([name, schema]) => renderSchema(name, schema))}
              </section>`
            : ''
        }
      </main>
    </div>`;
  return page(`${doc.info.title} reference`, body, {
    description: DESCRIPTION,
    head: html`<link rel="stylesheet" href="/assets/docs.css" />`,
  });
}

function operationsOf(item: PathItem): [string, Operation][] {
  return METHODS.filter((m) => item[m] !== undefined).map((m) => [m, item[m] as Operation]);
}

function renderPath(doc: OpenApiDoc, path: string, item: PathItem): Html {
  return html`<section class="path" aria-labelledby="${anchorOf('path', path)}">
    <h2 id="${anchorOf('path', path)}"><code>${path}</code></h2>
    ${operationsOf(item).map(([method, op]) => renderOperation(doc, path, method, op, item.parameters ?? []))}
  </section>`;
}

function renderOperation(
  doc: OpenApiDoc,
  path: string,
  method: string,
  op: Operation,
  shared: readonly unknown[],
): Html {
  const id = operationAnchor(path, method, op);
  // Operation parameters override path-level ones of the same name and location (OpenAPI 3.1, 4.8.10.1).
  const own = (op.parameters ?? []).filter(isParameter);
  const params = [
    ...shared.filter(isParameter).filter((p) => !own.some((o) => o.name === p.name && o.in === p.in)),
    ...own,
  ];
  const security = op.security ?? doc.security ?? [];
  return html`<section class="operation" aria-labelledby="${id}">
    <h3 id="${id}"><span class="method">${method.toUpperCase()}</span> <code>${path}</code></h3>
    ${op.summary ? html`<p class="summary">${op.summary}</p>` : ''}
    ${op.description ? html`<p>${prose(op.description)}</p>` : ''}
    <p class="auth">
      ${security.length ? html`Needs an API key (<a href="#authentication">authentication</a>).` : 'Needs no key.'}
    </p>
    <h4>Parameters</h4>
    ${
      params.length
        ? tableOf(
            ['Name', 'In', 'Required', 'Schema', 'Description'],
            params.map(
              (p) =>
                html`<tr>
                    <th scope="row"><code>${p.name}</code></th>
                    <td>${p.in}</td>
                    <td>${p.required ? 'yes' : 'no'}</td>
                    <td>${p.schema ? typeOf(p.schema) : ''}</td>
                    <td>${p.description ? prose(p.description) : ''}</td>
                  </tr>`,
            ),
          )
        : html`<p>None.</p>`
    }
    <h4>Responses</h4>
    ${Object.entries(op.responses).map(([status, r]) => renderResponse(id, status, r))}
  </section>`;
}

function renderResponse(operationId: string, status: string, r: Response): Html {
  const headers = Object.entries(r.headers ?? {});
  const content = Object.entries(r.content ?? {});
  return html`<section class="response" aria-labelledby="${operationId}-${status}">
    <h5 id="${operationId}-${status}"><span class="status">${status}</span> ${prose(r.description)}</h5>
    ${
      headers.length
        ? html`<dl class="headers">
            ${headers.map(
              ([name, h]) =>
                html`<dt>
                    <code>${name}</code>${h.schema ? html` <span class="type">${typeOf(h.schema)}</span>` : ''}
                  </dt>
                  <dd>${h.description ? prose(h.description) : ''}</dd>`,
            )}
          </dl>`
        : ''
    }
    ${content.map(([type, c]) => {
      const examples: [string, unknown][] =
        c.example !== undefined
          ? [['Example', c.example]]
          : Object.entries(c.examples ?? {}).map(([name, e]) => [`Example: ${name}`, e.value]);
      return html`<p>Body: <code>${type}</code>${c.schema ? html`, ${typeOf(c.schema)}` : ''}</p>
        ${examples.map(
          ([label, value]) =>
            html`<details>
              <summary>${label}</summary>
              <pre><code>${JSON.stringify(value, null, 2)}</code></pre>
            </details>`,
        )}`;
    })}
  </section>`;
}

function operationAnchor(path: string, method: string, op: Operation): string {
  return op.operationId ? anchorOf('op', op.operationId) : anchorOf('op', `${method}-${path}`);
}

function isParameter(value: unknown): value is Parameter {
  return isObject(value) && typeof value.name === 'string' && typeof value.in === 'string';
}
