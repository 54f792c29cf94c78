// Content codings (RFC 9110 8.4, 12.5.3): which one a request accepts, and bodies compressed once for all requests.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

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
 * Compresses once: brotli's best quality on small bodies (milliseconds), a lower one above 64 KiB, where quality 11
 * costs seconds (the 1.7 MB docs bundle) for a few percent.
 */
export function compress(bytes: Buffer, coding: Coding): Buffer {
  if (coding === 'gzip') return gzipSync(bytes, { level: 9 });
  return brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: bytes.length <= 64 * 1024 ? 11 : 9,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
}

/** Distinct Accept-Encoding values seen recently: a browser sends the same one every time. Bounded, so odd values cannot grow memory. */
const chosen = new Map<string, Coding | null>();

/** The coding to answer in, or null for identity: br over gzip at equal q; q=0 refuses; `*` stands for any coding not named. */
export function codingFor(acceptEncoding: string | undefined): Coding | null {
  if (acceptEncoding === undefined || acceptEncoding === '') return null;
  const hit = chosen.get(acceptEncoding);
  if (hit !== undefined) return hit;
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
  const result = br <= 0 && gzip <= 0 ? null : br >= gzip ? 'br' : 'gzip';
  if (chosen.size >= 64) chosen.clear();
  chosen.set(acceptEncoding, result);
  return result;
}
