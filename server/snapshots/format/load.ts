// Reads a snapshot, its signature and a JWKS from local files or http(s) URLs (with undici), for `snapshot verify`.
import { readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Agent, interceptors, request, type Dispatcher } from 'undici';
import { ListingsError } from '../../errors.ts';

const MAX_BYTES = 64 * 1024 * 1024;

export interface SnapshotFiles {
  /** Where listings.json was read from (a path or a URL). */
  location: string;
  listings: Buffer;
  signature: string;
  /** Where the signature was read from: `v<version>/listings.json.sig` beside listings.json, or `<listings.json>.sig`. */
  signatureLocation: string;
}

const isUrl = (s: string) => /^https?:\/\//i.test(s);

/**
 * PATH_OR_URL names listings.json itself or the facility folder holding it. Snapshots are published consistently
 * (contract, "Signed snapshots"): the immutable `v<version>/listings.json.sig` of the version listings.json names is
 * written before the pointer's own .sig, so it is the one that matches even between the publisher's two writes.
 * Only where it does not exist (a folder exported by an older release) is the signature `<listings.json>.sig`.
 */
export async function loadSnapshotFiles(pathOrUrl: string): Promise<SnapshotFiles> {
  const location = await listingsLocationOf(pathOrUrl);
  const listings = await readSource(location);
  const candidates = signatureLocationsOf(location, versionOf(listings));
  for (const signatureLocation of candidates) {
    const signature = await readIfExists(signatureLocation);
    if (signature) return { location, listings, signature: signature.toString('utf8'), signatureLocation };
  }
  throw new ListingsError('unreadable', `${location}: no signature (not found: ${candidates.join(', ')})`);
}

/** The version listings.json names, unverified: it only chooses which signature to read, and that signature decides. */
function versionOf(listings: Buffer): number | undefined {
  try {
    const { version } = JSON.parse(listings.toString('utf8')) as { version?: unknown };
    return typeof version === 'number' && Number.isSafeInteger(version) && version > 0 ? version : undefined;
  } catch {
    return undefined;
  }
}

/** Where the signature may be, in the order to try: the version's own, then the one beside listings.json. */
function signatureLocationsOf(location: string, version: number | undefined): string[] {
  if (!isUrl(location)) {
    const beside = `${location}.sig`;
    // A file already inside v<N>/ is a version: the signature beside it is that version's.
    if (version === undefined || /^v\d+$/.test(basename(dirname(location)))) return [beside];
    return [join(dirname(location), `v${version}`, 'listings.json.sig'), beside];
  }
  const url = new URL(location);
  const beside = new URL(url);
  beside.pathname += '.sig'; // before any query string
  if (version === undefined || /\/v\d+\/[^/]*$/.test(url.pathname)) return [beside.href];
  return [new URL(`v${version}/listings.json.sig`, url).href, beside.href];
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
  const bytes = await readIfExists(source);
  if (!bytes)
    throw new ListingsError('unreadable', isUrl(source) ? `${source}: HTTP 404` : `${source}: cannot read: ENOENT`);
  return bytes;
}

/** The bytes of a file or URL; undefined when it does not exist (ENOENT, HTTP 404); any other failure is 'unreadable'. */
async function readIfExists(source: string): Promise<Buffer | undefined> {
  if (!isUrl(source)) {
    try {
      return await readFile(source);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return undefined;
      throw new ListingsError('unreadable', `${source}: cannot read: ${code ?? (err as Error).message}`);
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

async function fetchBody(source: string, dispatcher: Dispatcher): Promise<Buffer | undefined> {
  try {
    const res = await request(source, { dispatcher, headers: { accept: 'application/json' } });
    if (res.statusCode === 404) {
      await res.body.dump();
      return undefined;
    }
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
