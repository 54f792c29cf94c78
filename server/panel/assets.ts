// The panel's stylesheet, icon and script (the Lit components Vite builds into dist/panel/panel.js), and the widget's
// module for the Embed tab's preview, compressed once at start and served as the client accepts them.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { ListingsError } from '../errors.ts';
import { REPO_ROOT } from '../repo.ts';
import { FAVICON_SVG } from './assets/favicon.svg.ts';
import { PANEL_CSS } from './assets/panel.css.ts';
import type { PanelRequest } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';

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

export type PanelAssets = (path: string, req: PanelRequest) => Answer | undefined;

/** The chunks the widget loads on demand (dist/widget/chunks/), at the path its module imports them from. */
function widgetChunks(widgetPath: string): [string, Asset][] {
  const dir = join(dirname(widgetPath), 'chunks');
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.js'));
  } catch {
    // a widget built without chunks
  }
  return names.map((name) => [
    `/assets/chunks/${name}`,
    asset('text/javascript; charset=utf-8', bundle(join(dir, name))),
  ]);
}

export function panelAssets(bundlePath = PANEL_BUNDLE, widgetPath = WIDGET_BUNDLE): PanelAssets {
  const assets = new Map([
    ['/assets/panel.css', asset('text/css; charset=utf-8', Buffer.from(PANEL_CSS))],
    ['/assets/favicon.svg', asset('image/svg+xml', Buffer.from(FAVICON_SVG))],
    ['/assets/panel.js', asset('text/javascript; charset=utf-8', bundle(bundlePath))],
    ['/assets/storage-listings.js', asset('text/javascript; charset=utf-8', bundle(widgetPath))],
    ...widgetChunks(widgetPath),
  ]);
  return (path, req) => {
    const a = assets.get(path);
    if (!a || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
    const accepts = req.headers['accept-encoding'] ?? '';
    const encoding = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : undefined;
    const headers: Record<string, string> = {
      'content-type': a.type,
      // a chunk's name holds its content's hash
      'cache-control': path.startsWith('/assets/chunks/') ? 'public, max-age=31536000, immutable' : 'no-cache',
      vary: 'Accept-Encoding',
      'x-content-type-options': 'nosniff',
    };
    if (encoding) headers['content-encoding'] = encoding;
    return { status: 200, headers, body: encoding ? a[encoding] : a.identity };
  };
}
