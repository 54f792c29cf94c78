// What a follower reads: files under one base URL (http(s) or file), each capped in size, redirects kept on its host.
import { open } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import { ListingsError } from '../../errors.ts';

/** A refusal: `file` names what failed, the message says why, in one line. */
export class FollowError extends ListingsError {
  constructor(
    readonly file: string,
    why: string,
  ) {
    super('follow_refused', `${file}: ${why}`);
  }
}

export interface Fetched {
  /** 304 only when an ETag was sent and the file has not changed. */
  status: 200 | 304 | 404;
  bytes: Buffer;
  etag?: string;
}

export interface Source {
  /** The base as a URL ending in `/`: every link the follower follows must stay under it. */
  readonly base: URL;
  /** Every file read, in order (a 304 too): what a run cost. */
  readonly reads: string[];
  get(url: URL, etag?: string): Promise<Fetched>;
  close(): Promise<void>;
}

/** `https://cdn.example/snapshots`, `file:///srv/public`, or a plain path: a folder, as a URL ending in `/`. */
export function baseUrlOf(location: string): URL {
  let url: URL;
  if (/^(https?|file):/i.test(location)) url = new URL(location);
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(location))
    throw new ListingsError(
      'invalid_argument',
      `${location}: only http(s) and file URLs (or a folder path) can be followed`,
    );
  else url = pathToFileURL(isAbsolute(location) ? location : resolve(location));
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.search = '';
  url.hash = '';
  return url;
}

/** `link` (relative to the base, as the files write them) resolved, refused when it leaves the base. */
export function within(base: URL, link: string, file: string): URL {
  let url: URL;
  try {
    url = new URL(link, base);
  } catch {
    throw new FollowError(file, `the link "${link}" is not a URL`);
  }
  if (!url.href.startsWith(base.href) || url.href.includes('/../'))
    throw new FollowError(file, `the link "${link}" leads outside ${base.href}`);
  return url;
}

const REDIRECTS = 3;

/** A socket closed mid-answer is a truncated file; anything else says its code. */
function failureOf(err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET')
    return 'truncated: the connection closed before the whole file came';
  return `cannot fetch: ${code ?? (err as Error).message}`;
}

export function openSource(location: string, maxBytes: number): Source {
  const base = baseUrlOf(location);
  const reads: string[] = [];
  const agent = new Agent({ headersTimeout: 30_000, bodyTimeout: 30_000 });
  const shown = (url: URL) => (url.href.startsWith(base.href) ? url.href.slice(base.href.length) : url.href);
  const tooLarge = (url: URL) => new FollowError(shown(url), `larger than the ${maxBytes}-byte cap per file`);

  const getFile = async (url: URL): Promise<Fetched> => {
    let fh;
    try {
      fh = await open(fileURLToPath(url), 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { status: 404, bytes: Buffer.alloc(0) };
      throw new FollowError(
        shown(url),
        `cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
    try {
      // The size first: a file over the cap is refused with one stat, before any of it is read.
      if ((await fh.stat()).size > maxBytes) throw tooLarge(url);
      const bytes = await fh.readFile();
      if (bytes.length > maxBytes) throw tooLarge(url); // it grew in place meanwhile
      return { status: 200, bytes };
    } finally {
      await fh.close();
    }
  };

  const getHttp = async (url: URL, etag: string | undefined, hops: number): Promise<Fetched> => {
    let res;
    try {
      res = await request(url, {
        dispatcher: agent,
        headers: { accept: 'application/json', ...(etag ? { 'if-none-match': etag } : {}) },
      });
    } catch (err) {
      throw new FollowError(shown(url), failureOf(err));
    }
    const { statusCode: status, headers } = res;
    if (status >= 300 && status < 400 && status !== 304) {
      await res.body.dump();
      const location = typeof headers.location === 'string' ? new URL(headers.location, url) : undefined;
      if (!location) throw new FollowError(shown(url), `HTTP ${status} without a Location`);
      if (location.host !== url.host || location.protocol !== url.protocol)
        throw new FollowError(shown(url), `redirected to another host (${location.origin}): refused`);
      if (hops >= REDIRECTS) throw new FollowError(shown(url), `more than ${REDIRECTS} redirects`);
      return getHttp(location, etag, hops + 1);
    }
    if (status === 304 || status === 404) {
      await res.body.dump();
      return { status, bytes: Buffer.alloc(0) };
    }
    if (status !== 200) {
      await res.body.dump();
      throw new FollowError(shown(url), `HTTP ${status}`);
    }
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      res.body.destroy();
      throw tooLarge(url);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > maxBytes) {
          res.body.destroy();
          throw tooLarge(url);
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (err instanceof FollowError) throw err;
      throw new FollowError(shown(url), failureOf(err));
    }
    const bytes = Buffer.concat(chunks);
    if (Number.isFinite(declared) && bytes.length !== declared)
      throw new FollowError(shown(url), `truncated: ${bytes.length} of ${declared} bytes`);
    return { status: 200, bytes, etag: typeof headers.etag === 'string' ? headers.etag : undefined };
  };

  return {
    base,
    reads,
    async get(url, etag) {
      reads.push(shown(url));
      return url.protocol === 'file:' ? getFile(url) : getHttp(url, etag, 0);
    },
    close: () => agent.close(),
  };
}
