// Files served as they are (the widget bundle, page assets, demo pages), precompressed, with ETags and no way out of their folder.
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { extname, resolve, sep } from 'node:path';
import type { Answer, Headers, RequestLike } from '../transport/answer.ts';
import { header } from '../transport/answer.ts';
import { etagMatches } from '../transport/etag.ts';
import { codedEtag, codingOf, compress, compressLater, VARY_WITH_CODING, type Coding } from '../transport/encoding.ts';
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

/** Types worth compressing: text. Images here are PNG/JPEG (already compressed); SVG is text. */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|x-pem-file)|image\/svg\+xml)/;

/** Bytes served to every request alike, with their br and gzip forms made on first demand and kept. */
export class StaticBody {
  readonly etag: string;
  private readonly coded: Partial<Record<Coding, { bytes: Buffer; etag: string } | null>> = {};

  constructor(
    readonly bytes: Buffer,
    private readonly compressible: boolean,
  ) {
    this.etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  }

  /**
   * The answer: in the coding the request accepts (when that saves bytes), 304 when If-None-Match holds the ETag of
   * that coding. `headers` are those of a 200; a 304 keeps only what RFC 9110 15.4.5 lists, plus CORS.
   */
  answer(req: RequestLike, headers: Headers): Answer {
    const acceptEncoding = header(req, 'accept-encoding');
    const coding = this.compressible ? codingOf(acceptEncoding) : null;
    const coded = coding === null ? undefined : this.codedAs(coding);
    const etag = coded?.etag ?? this.etag;
    const vary =
      acceptEncoding === undefined || !this.compressible
        ? headers.vary
        : headers.vary === undefined
          ? 'Accept-Encoding'
          : VARY_WITH_CODING;
    const inm = header(req, 'if-none-match');
    if (inm !== undefined && etagMatches(inm, etag)) {
      const kept: Headers = { etag };
      for (const name of Object.keys(headers))
        if (NOT_MODIFIED_KEEPS.has(name) || name.startsWith('access-control-')) kept[name] = headers[name]!;
      if (vary !== undefined) kept.vary = vary;
      return { status: 304, headers: kept, body: null };
    }
    const out: Headers = { ...headers, etag };
    if (vary !== undefined) out.vary = vary;
    if (coded) out['content-encoding'] = coding!;
    return { status: 200, headers: out, body: coded?.bytes ?? this.bytes };
  }

  /** Makes both coded forms in libuv's thread pool, for a file large enough that compressing it would stall the loop. */
  async precompress(): Promise<void> {
    const codings: Coding[] = ['br', 'gzip'];
    const made = await Promise.all(codings.map((c) => compressLater(this.bytes, c, 'static')));
    codings.forEach((coding, i) => this.keep(coding, made[i]!));
  }

  private codedAs(coding: Coding): { bytes: Buffer; etag: string } | undefined {
    const coded = this.coded[coding];
    return (coded === undefined ? this.keep(coding, compress(this.bytes, coding, 'static')) : coded) ?? undefined;
  }

  // Tiny files can grow: those stay identity for this coding.
  private keep(coding: Coding, bytes: Buffer): { bytes: Buffer; etag: string } | null {
    return (this.coded[coding] =
      bytes.length < this.bytes.length ? { bytes, etag: codedEtag(this.etag, coding) } : null);
  }
}

/** What a 304 keeps of a 200's headers (RFC 9110 15.4.5); ETag and Vary are set by the answer itself. */
const NOT_MODIFIED_KEEPS = new Set(['cache-control', 'content-location', 'expires']);

export function isCompressible(contentType: string): boolean {
  return COMPRESSIBLE.test(contentType);
}

interface Cached {
  mtimeMs: number;
  size: number;
  body: StaticBody;
}

export class StaticFiles {
  private readonly cache = new Map<string, Cached>();
  private readonly root: string;

  constructor(
    root: string,
    private readonly headers: Headers = {},
    /** One value for every file, or one by the file's path below the root. */
    private readonly cacheControl: string | ((relPath: string) => string) = 'no-cache',
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
    const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    const entry = this.load(file, type);
    if (!entry) return undefined;
    const html = extname(file).toLowerCase() === '.html';
    const headers: Headers = {
      'content-type': type,
      'cache-control': typeof this.cacheControl === 'string' ? this.cacheControl : this.cacheControl(decoded),
      ...this.headers,
      ...(html ? HTML_SECURITY_HEADERS : {}),
    };
    return entry.body.answer(req, headers);
  }

  private load(file: string, type: string): Cached | undefined {
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
    const entry = { mtimeMs: st.mtimeMs, size: st.size, body: new StaticBody(bytes, isCompressible(type)) };
    this.cache.set(file, entry);
    return entry;
  }
}
