// Content codings (RFC 9110 8.4, 12.5.3): which one a request accepts, and bodies compressed once for all requests.
import { memoBy } from '../memo.ts';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions } from 'node:zlib';

export type Coding = 'br' | 'gzip';

/** The Vary value of an answer chosen by coding as well as by key and origin. */
export const VARY_WITH_CODING = 'X-API-Key, Origin, Accept-Encoding';

/** ETag suffixes: a strong validator differs per content coding (RFC 9110 8.8.3). */
export const ETAG_SUFFIX: Record<Coding, string> = { br: '-br', gzip: '-gz' };

/** The ETag of `etag` ("..." quoted) in this coding. */
export function codedEtag(etag: string, coding: Coding): string {
  return `${etag.slice(0, -1)}${ETAG_SUFFIX[coding]}"`;
}

/**
 * How hard to compress: `static` for files compressed once per process, `kept` for bodies made once per data change,
 * `once` for bodies that may serve a single request (a filtered list), where only a cheap level keeps each request cheap.
 */
export type Effort = 'static' | 'kept' | 'once';

const SMALL = 16 * 1024;
const LARGE = 256 * 1024;

/**
 * Brotli's best quality only for static files: on a kept body (a listing's detail, a list) quality 11 costs about a
 * millisecond on the event loop even for 1 KB, thirty times quality 5, for under a tenth fewer bytes, and a detail may
 * serve a handful of requests before its facility's data changes.
 */
function brotliQuality(length: number, effort: Effort): number {
  if (effort === 'static') return length <= LARGE / 4 ? 11 : 9;
  if (effort === 'once') return 1;
  return length <= 4 * LARGE ? 5 : 4;
}

export function compress(bytes: Buffer, coding: Coding, effort: Effort = 'kept'): Buffer {
  const out =
    coding === 'gzip'
      ? gzipSync(bytes, { level: gzipLevel(bytes.length, effort) })
      : brotliCompressSync(bytes, brotliOptions(bytes.length, effort));
  return ownBytes(out);
}

/** As compress(), in libuv's thread pool: the event loop answers other requests meanwhile. */
export function compressLater(bytes: Buffer, coding: Coding, effort: Effort): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (err: Error | null, out: Buffer) => (err ? reject(err) : resolve(ownBytes(out)));
    if (coding === 'gzip') gzip(bytes, { level: gzipLevel(bytes.length, effort) }, done);
    else brotliCompress(bytes, brotliOptions(bytes.length, effort), done);
  });
}

function gzipLevel(length: number, effort: Effort): number {
  return effort === 'once' ? 1 : effort === 'static' || length <= SMALL ? 9 : 6;
}

function brotliOptions(length: number, effort: Effort): BrotliOptions {
  return {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: brotliQuality(length, effort),
      [constants.BROTLI_PARAM_SIZE_HINT]: length,
    },
  };
}

/** zlib hands back a slice of its output chunk (16 KiB and up): a kept 300-byte body would hold the whole chunk. */
function ownBytes(out: Buffer): Buffer {
  return out.length < out.buffer.byteLength / 2 ? Buffer.from(out) : out;
}

/** The coding to answer in, or null for identity: br over gzip at equal q; q=0 refuses; `*` stands for any coding not named. */
export function codingOf(acceptEncoding: string | undefined): Coding | null {
  if (acceptEncoding === undefined || acceptEncoding === '') return null;
  const q: Partial<Record<string, number>> = {};
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.split(';');
    const coding = name!.trim().toLowerCase();
    if (coding === '') continue;
    const qParam = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const value = qParam === undefined ? 1 : Number(qParam.slice(2));
    q[coding] = Number.isFinite(value) ? value : 0;
  }
  const of = (c: Coding) => q[c] ?? (c === 'gzip' ? q['x-gzip'] : undefined) ?? q['*'] ?? 0;
  const [br, gzip] = [of('br'), of('gzip')];
  return br <= 0 && gzip <= 0 ? null : br >= gzip ? 'br' : 'gzip';
}

/** codingOf() of the Accept-Encoding values seen recently: a browser sends the same one every time. */
export class Codings {
  /** Clients send a handful of distinct values; 64 keeps them all, and odd values cannot grow memory. (Tests read it.) */
  readonly chosen = memoBy<string, Coding | 'identity'>(64, (value) => codingOf(value) ?? 'identity');

  of(acceptEncoding: string | undefined): Coding | null {
    if (acceptEncoding === undefined || acceptEncoding === '') return null;
    const chosen = this.chosen.memo(acceptEncoding);
    return chosen === 'identity' ? null : chosen;
  }
}
