// The panel's stylesheet and script, compressed once at start and served as the client accepts them.
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { PANEL_CSS } from './assets/panel.css.ts';
import { PANEL_JS } from './assets/panel.js.ts';
import type { PanelRequest, PanelResponse } from './http.ts';

interface Asset {
  type: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

function asset(type: string, text: string): Asset {
  const identity = Buffer.from(text);
  return { type, identity, br: brotliCompressSync(identity), gzip: gzipSync(identity, { level: 9 }) };
}

const ASSETS = new Map([
  ['/assets/panel.css', asset('text/css; charset=utf-8', PANEL_CSS)],
  ['/assets/panel.js', asset('text/javascript; charset=utf-8', PANEL_JS)],
]);

export function panelAsset(path: string, req: PanelRequest): PanelResponse | undefined {
  const a = ASSETS.get(path);
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
}
