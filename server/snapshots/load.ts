// Reads a snapshot, its signature and a JWKS from local files or http(s) URLs (with undici), for `snapshot verify`.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, interceptors, request, type Dispatcher } from 'undici';
import { ListingsError } from '../errors.ts';

const MAX_BYTES = 64 * 1024 * 1024;

export interface SnapshotFiles {
  /** Where listings.json was read from (a path or a URL). */
  location: string;
  listings: Buffer;
  signature: string;
}

const isUrl = (s: string) => /^https?:\/\//i.test(s);

/** PATH_OR_URL names listings.json itself or the facility folder holding it; the signature is `<listings>.sig`. */
export async function loadSnapshotFiles(pathOrUrl: string): Promise<SnapshotFiles> {
  const location = await listingsLocationOf(pathOrUrl);
  const [listings, signature] = await Promise.all([readSource(location), readSource(`${location}.sig`)]);
  return { location, listings, signature: signature.toString('utf8') };
}

export async function loadText(fileOrUrl: string): Promise<string> {
  return (await readSource(fileOrUrl)).toString('utf8');
}

async function listingsLocationOf(pathOrUrl: string): Promise<string> {
  if (isUrl(pathOrUrl)) {
    const url = new URL(pathOrUrl);
    if (!/\.json$/i.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, '')}/listings.json`;
    return url.href;
  }
  const info = await stat(pathOrUrl).catch(() => undefined);
  return info?.isDirectory() ? join(pathOrUrl, 'listings.json') : pathOrUrl;
}

async function readSource(source: string): Promise<Buffer> {
  if (!isUrl(source)) {
    try {
      return await readFile(source);
    } catch (err) {
      throw new ListingsError('unreadable', `${source}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }
  // One agent per file, closed after: no idle keep-alive socket holds the CLI open.
  const agent = new Agent({ headersTimeout: 30_000, bodyTimeout: 30_000 });
  try {
    return await fetchBody(source, agent.compose(interceptors.redirect({ maxRedirections: 5 })));
  } finally {
    await agent.close();
  }
}

async function fetchBody(source: string, dispatcher: Dispatcher): Promise<Buffer> {
  try {
    const res = await request(source, { dispatcher, headers: { accept: 'application/json' } });
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw new ListingsError('unreadable', `${source}: HTTP ${res.statusCode}`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_BYTES) {
        res.body.destroy();
        throw new ListingsError('unreadable', `${source}: larger than ${MAX_BYTES / 1024 / 1024} MiB`);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  } catch (err) {
    if (err instanceof ListingsError) throw err;
    throw new ListingsError('unreadable', `${source}: cannot fetch: ${(err as Error).message}`);
  }
}
