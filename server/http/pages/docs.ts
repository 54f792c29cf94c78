// The API reference at /docs: Redoc renders /openapi.json in the page, its bundle served from this server, no CDN.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../repo.ts';
import type { Answer, Headers, RequestLike } from '../transport/answer.ts';
import { html, HTML_SECURITY_HEADERS, page } from './html.ts';
import { StaticBody } from './static-files.ts';

const REDOC = join(REPO_ROOT, 'node_modules', 'redoc');
export const REDOC_PATH = '/docs/redoc.standalone.js';
/** What a browser may keep the bundle for: its URL carries Redoc's version, so a new version is a new URL. */
const BUNDLE_CACHE = 'public, max-age=31536000, immutable';
/** The placeholder in the document's curl samples that the page swaps for the visitor's key. */
const KEY_VARIABLE = '$LISTINGS_KEY';

/** The parts of the OpenAPI document this page reads. */
export interface OpenApiDoc {
  info: { title: string };
  paths: Record<string, { get?: { summary?: string; 'x-codeSamples'?: readonly { source: string }[] } }>;
}

// Redoc (styled-components) writes its CSS into <style> elements and style attributes as it renders.
export const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const PAGE_HEADERS: Headers = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-cache',
  ...HTML_SECURITY_HEADERS,
  'content-security-policy': DOCS_CSP,
};

/** /docs and the Redoc bundle it loads; the bundle (1.1 MB) is read and compressed once it is first asked for. */
export class DocsPage {
  private readonly body: StaticBody;
  private bundle: StaticBody | undefined;
  private loading: Promise<void> | undefined;
  private readonly version = redocVersion();

  constructor(doc: OpenApiDoc) {
    this.body = new StaticBody(Buffer.from(this.render(doc)), true);
  }

  page(req: RequestLike): Answer {
    return this.body.answer(req, PAGE_HEADERS);
  }

  /** The bundle at REDOC_PATH, whatever its query: the page asks for it with `?v=` and Redoc's version. */
  redoc(req: RequestLike): Answer {
    const headers = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': BUNDLE_CACHE };
    if (this.bundle) return this.bundle.answer(req, headers);
    // Compressed off the event loop once: at 1.1 MB, brotli would hold up every other request for a fifth of a second.
    if (!this.loading) {
      const body = new StaticBody(Buffer.from(redocBundle()), true);
      // Should the pool fail, each coding is made on first demand instead, as for any static file.
      this.loading = body.precompress().then(
        () => void (this.bundle = body),
        () => void (this.bundle = body),
      );
    }
    return { status: 200, headers: {}, body: null, later: this.loading.then(() => this.bundle!.answer(req, headers)) };
  }

  private render(doc: OpenApiDoc): string {
    const samples = Object.values(doc.paths).flatMap((item) =>
      item.get?.['x-codeSamples']?.[0]
        ? [{ summary: item.get.summary ?? '', source: item.get['x-codeSamples'][0].source }]
        : [],
    );
    const body = html`<a class="skip" href="#reference">Skip to the reference</a>
      <header class="docs-header">
        <h1>${doc.info.title} reference</h1>
        <p>The OpenAPI document itself: <a href="/openapi.json">/openapi.json</a>.</p>
        <noscript>
          <p>This reference is drawn by a script; without it, read the OpenAPI document at <a href="/openapi.json">/openapi.json</a>.</p>
        </noscript>
        <section class="try" aria-labelledby="try">
          <h2 id="try">Requests with your key</h2>
          <p>
            <label for="api-key">Your API key</label>
            <input id="api-key" type="password" autocomplete="off" spellcheck="false" placeholder="svc_live_…" />
          </p>
          <p class="hint">The key stays in this page: it is neither sent nor stored.</p>
          ${samples.map(
            (s) =>
              html`<h3>${s.summary}</h3>
                <pre><code class="sample">${s.source.split(KEY_VARIABLE).map((part, i) => html`${i ? html`<span class="key">${KEY_VARIABLE}</span>` : ''}${part}`)}</code></pre>`,
          )}
        </section>
      </header>
      <main id="reference"></main>
      <script src="${REDOC_PATH}?v=${this.version}" defer></script>
      <script src="/assets/docs.js" defer></script>`;
    return page(`${doc.info.title} reference`, body, {
      description:
        'Reference of the External Listings API: endpoints, parameters, responses with examples, and schemas.',
      head: html`<link rel="stylesheet" href="/assets/docs.css" />`,
    });
  }
}

// Redoc's side menu shows Redocly's logo from their CDN, which the CSP refuses: an empty image of our own instead.
const CDN_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='0' height='0'/%3E";

function redocBundle(): string {
  return readFileSync(join(REDOC, 'bundles', 'redoc.standalone.js'), 'utf8').replaceAll(CDN_LOGO, EMPTY_IMAGE);
}

function redocVersion(): string {
  return (JSON.parse(readFileSync(join(REDOC, 'package.json'), 'utf8')) as { version: string }).version;
}
