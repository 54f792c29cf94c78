// The panel's stylesheet, icon and script (the Lit components Vite builds into dist/panel/panel.js), and the widget's
// module for the Embed tab's preview, compressed once at start and served as the client accepts them.
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { ListingsError } from '../errors.ts';
import { REPO_ROOT } from '../repo.ts';
import { FAVICON_SVG } from './assets/favicon.svg.ts';
import { PANEL_CSS } from './assets/panel.css.ts';
import type { PanelRequest, PanelResponse } from './http.ts';

export const PANEL_BUNDLE = join(REPO_ROOT, 'dist', 'panel', 'panel.js');
/** The widget as partners load it: the Embed tab previews the very module its snippet names. */
export const WIDGET_BUNDLE = join(REPO_ROOT, 'dist', 'widget', 'storage-listings.js');

interface Asset {
  type: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

function asset(type: string, bytes: Buffer): Asset {
  return { type, identity: bytes, br: brotliCompressSync(bytes), gzip: gzipSync(bytes, { level: 9 }) };
}

/** The bundle, or a refusal to start that says how to make it: pages would work without it, but not as built. */
function bundle(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch {
    throw new ListingsError('panel_bundle_missing', `${path} is missing: run npm run build`);
  }
}

export type PanelAssets = (path: string, req: PanelRequest) => PanelResponse | undefined;

export function panelAssets(bundlePath = PANEL_BUNDLE, widgetPath = WIDGET_BUNDLE): PanelAssets {
  const assets = new Map([
    ['/assets/panel.css', asset('text/css; charset=utf-8', Buffer.from(PANEL_CSS))],
    ['/assets/favicon.svg', asset('image/svg+xml', Buffer.from(FAVICON_SVG))],
    ['/assets/panel.js', asset('text/javascript; charset=utf-8', bundle(bundlePath))],
    ['/assets/storage-listings.js', asset('text/javascript; charset=utf-8', bundle(widgetPath))],
    // The chunks the widget loads on demand, beside it as on the API's server.
    ...readdirSync(dirname(widgetPath))
      .filter((name) => name.endsWith('.js') && name !== basename(widgetPath))
      .map(
        (name) =>
          [
            `/assets/${name}`,
            asset('text/javascript; charset=utf-8', bundle(join(dirname(widgetPath), name))),
          ] as const,
      ),
  ]);
  return (path, req) => {
    const a = assets.get(path);
    if (!a || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
    const accepts = req.headers['accept-encoding'] ?? '';
    const encoding = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : undefined;
    const headers: Record<string, string> = {
      'content-type': a.type,
      'cache-control': 'no-cache',
      vary: 'Accept-Encoding',
      'x-content-type-options': 'nosniff',
    };
    if (encoding) headers['content-encoding'] = encoding;
    return { status: 200, headers, body: encoding ? a[encoding] : a.identity };
  };
}
