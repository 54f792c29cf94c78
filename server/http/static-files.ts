// Files served as they are (the widget bundle, page assets, demo pages), with ETags and no way out of their folder.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';
import type { Answer, Headers, RequestLike } from './answer.ts';
import { header } from './answer.ts';
import { etagMatches } from './api.ts';
import { HTML_SECURITY_HEADERS } from './html.ts';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.pem': 'application/x-pem-file',
  '.sig': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

interface Cached {
  mtimeMs: number;
  size: number;
  bytes: Buffer;
  etag: string;
}

export class StaticFiles {
  private readonly cache = new Map<string, Cached>();
  private readonly root: string;

  constructor(
    root: string,
    private readonly headers: Headers = {},
    private readonly cacheControl = 'no-cache',
  ) {
    this.root = resolve(root);
  }

  /** Answers a file below the root, or undefined when there is none (the caller decides the 404). */
  serve(req: RequestLike, relPath: string): Answer | undefined {
    let decoded: string;
    try {
      decoded = decodeURIComponent(relPath);
    } catch {
      return undefined;
    }
    if (decoded.includes('\0')) return undefined;
    const file = resolve(this.root, '.' + sep + decoded);
    if (file !== this.root && !file.startsWith(this.root + sep)) return undefined;
    const entry = this.load(file);
    if (!entry) return undefined;
    const html = extname(file).toLowerCase() === '.html';
    const headers: Headers = {
      'content-type': TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
      'cache-control': this.cacheControl,
      etag: entry.etag,
      ...this.headers,
      ...(html ? HTML_SECURITY_HEADERS : {}),
    };
    const inm = header(req, 'if-none-match');
    if (inm !== undefined && etagMatches(inm, entry.etag)) return { status: 304, headers, body: null };
    return { status: 200, headers, body: entry.bytes };
  }

  private load(file: string): Cached | undefined {
    let st;
    try {
      st = statSync(file);
    } catch {
      return undefined;
    }
    if (!st.isFile()) return undefined;
    const hit = this.cache.get(file);
    if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit;
    const bytes = readFileSync(file);
    const entry = { mtimeMs: st.mtimeMs, size: st.size, bytes, etag: `"${createHash('sha1').update(bytes).digest('base64url')}"` };
    this.cache.set(file, entry);
    return entry;
  }
}
