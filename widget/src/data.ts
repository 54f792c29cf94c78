// Network I/O for both data sources: the live API (the list, then one listing's details on demand) and static snapshots.
import { isSortKey } from '../../shared/sort.ts';
import type { Detail, ListResponse, Problem, Snapshot, Summary } from '../../shared/listing.ts';
import { WidgetError } from './errors.ts';
import type { Facility } from './listing.ts';
import { verifySignature } from './verify.ts';

export interface LiveSource {
  kind: 'live';
  apiBase: string;
  apiKey: string;
  availableOnly: boolean;
  sort: string | undefined;
  /** The facility id the page expects (`facility`); an answer for any other is refused. */
  facility: string | undefined;
}
export interface SnapshotSource {
  kind: 'snapshot';
  src: string;
  keysUrl: string | undefined;
  /** The facility id the page expects (`facility`); a snapshot of any other is refused, signed or not. */
  facility: string | undefined;
  /** The lowest version the page accepts (`min-version`): an older file is a rollback, refused signed or not. */
  minVersion: number | undefined;
}
export type Source = LiveSource | SnapshotSource;

export interface Loaded {
  listings: Summary[];
  /** Snapshots carry Detail objects already: no detail request is needed. */
  complete: boolean;
  /** The ETag, or the body itself when there is none: the same version means nothing changed. */
  version: string;
  /** The facility as the answer describes it: its name (for the structured data) and, where given, the rest. */
  facility: Facility | undefined;
  /** The key's partner reference (X-Partner-Ref): live rent links go through the click URL with it. */
  ref?: string;
  /** 'withdrawn' for a withdrawn facility's tombstone (`snapshot withdraw`): no longer listed, which is not an error. */
  empty?: 'withdrawn';
  /** A verified snapshot's `expires_at` (ms): shown until then only. */
  expiresAt?: number;
}

/** An absolute URL for an attribute value that may be relative to the page; `attribute` names it when it is no URL. */
export function absolute(url: string, attribute?: string): URL {
  try {
    return new URL(url, document.baseURI);
  } catch {
    throw new WidgetError(0, 'invalid_config', 0, attribute);
  }
}

function apiUrl(apiBase: string, path: string): URL {
  return new URL(path, absolute(apiBase.endsWith('/') ? apiBase : `${apiBase}/`, 'api-base'));
}

/** Seconds from a Retry-After header (delta-seconds or an HTTP date); 0 when absent or unreadable. */
function retryAfterOf(header: string | null): number {
  if (!header) return 0;
  const seconds = /^\s*\d+\s*$/.test(header) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.max(0, Math.ceil(seconds)) : 0;
}

async function failureOf(response: Response): Promise<WidgetError> {
  let code = `http_${response.status}`;
  try {
    const problem = (await response.json()) as Partial<Problem> | null;
    if (typeof problem?.code === 'string') code = problem.code;
  } catch {
    // not an RFC 9457 body: the status alone has to do
  }
  return new WidgetError(response.status, code, retryAfterOf(response.headers.get('Retry-After')));
}

/** fetch, with every failure turned into a WidgetError (an abort stays an AbortError: nobody is waiting for it). */
async function request(url: URL, init: RequestInit): Promise<{ response: Response; bytes: ArrayBuffer }> {
  try {
    const response = await fetch(url, init);
    if (!response.ok) throw await failureOf(response);
    return { response, bytes: await response.arrayBuffer() };
  } catch (error) {
    if (error instanceof WidgetError || init.signal?.aborted) throw error;
    throw new WidgetError(0, 'network_error');
  }
}

function parse(bytes: ArrayBuffer, status: number): { value: unknown; text: string } {
  const text = new TextDecoder().decode(bytes);
  try {
    return { value: JSON.parse(text) as unknown, text };
  } catch {
    throw new WidgetError(status, 'invalid_response');
  }
}

function isSummary(value: unknown): value is Summary {
  const l = value as Summary | null;
  return (
    typeof l?.id === 'string' &&
    typeof l.title === 'string' &&
    typeof l.code === 'string' &&
    typeof l.area_m2 === 'number' &&
    typeof l.free_units === 'number' &&
    typeof l.price?.gross === 'number' &&
    typeof l.price.currency === 'string' &&
    typeof l.price.period === 'string'
  );
}

function isDetail(value: unknown): value is Detail {
  const d = value as Detail | null;
  return (
    isSummary(d) &&
    Array.isArray(d.photos) &&
    typeof d.dimensions?.width_m === 'number' &&
    typeof d.deposit?.amount === 'number' &&
    typeof d.description === 'string'
  );
}

/** A list answer or a snapshot, checked; complete: a snapshot, whose listings are Details. */
function loadedOf(body: unknown, response: Response, text: string, complete: boolean): Loaded {
  const { listings, facility } = (body ?? {}) as Partial<ListResponse>;
  if (!Array.isArray(listings)) throw new WidgetError(response.status, 'invalid_response');
  return {
    listings: listings.filter(complete ? isDetail : isSummary), // one malformed listing must not hide the others
    complete,
    version: response.headers.get('ETag') ?? text,
    facility: typeof facility?.name === 'string' ? facility : undefined,
    ref: response.headers.get('X-Partner-Ref') || undefined,
  };
}

/**
 * A list or snapshot of another facility than the pinned one is refused, as `snapshot verify --facility` does; a
 * withdrawn facility's tombstone names its facility by id alone.
 */
function checkFacility(body: unknown, pinned: string | undefined): void {
  const facility = (body as { facility?: string | { id?: string } } | null)?.facility;
  if (pinned !== undefined && (typeof facility === 'string' ? facility : facility?.id) !== pinned) {
    throw new WidgetError(0, 'facility_mismatch');
  }
}

async function loadLive(source: LiveSource, signal: AbortSignal): Promise<Loaded> {
  const url = apiUrl(source.apiBase, 'external/listings');
  if (source.availableOnly) url.searchParams.set('available', 'true');
  if (isSortKey(source.sort)) url.searchParams.set('sort', source.sort);
  // no-cache: the browser revalidates with If-None-Match from its HTTP cache, which keeps the body a 304 stands for
  // (a header we added ourselves would bring a bare 304), and a 304 reaches us as the cached 200.
  const { response, bytes } = await request(url, {
    cache: 'no-cache',
    headers: { 'X-API-Key': source.apiKey },
    signal,
  });
  const { value, text } = parse(bytes, response.status);
  checkFacility(value, source.facility);
  return loadedOf(value, response, text, false);
}

/**
 * A JSON file the snapshot's check needs. A refusal (4xx) of a file the page names itself (`attribute`) is a setup
 * fault of that attribute, not a failed check.
 */
async function loadJson(url: URL, init: RequestInit, code: string, attribute?: string): Promise<unknown> {
  try {
    const { response, bytes } = await request(url, init);
    return parse(bytes, response.status).value;
  } catch (error) {
    if (!(error instanceof WidgetError) || !error.status) throw error;
    const refused = error.status >= 400 && error.status < 500 && error.status !== 429;
    throw new WidgetError(error.status, code, 0, refused ? attribute : undefined);
  }
}

/**
 * The version a snapshot names. Before verification it only chooses which signature to fetch (that signature decides);
 * `min-version` is checked against it once the bytes are verified (or, without keys-url, as shown).
 */
function versionOf(value: unknown): number | undefined {
  const version = (value as Partial<Snapshot> | null)?.version;
  return typeof version === 'number' && Number.isSafeInteger(version) && version > 0 ? version : undefined;
}

/**
 * The signature for the snapshot at `url`. Snapshots are published consistently (contract, "Signed snapshots"):
 * `v<version>/listings.json.sig` first, the pointer's own .sig later, so the signature of the version the bytes
 * name is the one that matches even between those two writes. It never changes, so the HTTP cache may keep it.
 * A folder without v<N>/ folders (an older export: 404) or a file already inside one has its signature beside it.
 */
async function loadSignature(url: URL, version: number | undefined, signal: AbortSignal): Promise<unknown> {
  if (version !== undefined && !/\/v\d+\/[^/]*$/.test(url.pathname)) {
    try {
      return await loadJson(new URL(`v${version}/listings.json.sig`, url), { signal }, 'signature_unavailable');
    } catch (error) {
      if ((error as WidgetError).status !== 404) throw error;
    }
  }
  const sibling = new URL(url);
  sibling.pathname += '.sig';
  return loadJson(sibling, { cache: 'no-cache', signal }, 'signature_unavailable');
}

async function loadSnapshot(source: SnapshotSource, signal: AbortSignal): Promise<Loaded> {
  const url = absolute(source.src, 'src');
  const { response, bytes } = await request(url, { cache: 'no-cache', signal });
  let parsed: ReturnType<typeof parse> | undefined;
  try {
    parsed = parse(bytes, response.status);
  } catch {
    // reported below: with keys-url, the signature check comes first
  }
  let kid: string | undefined;
  if (source.keysUrl) {
    const [signature, jwks] = await Promise.all([
      loadSignature(url, versionOf(parsed?.value), signal),
      loadJson(absolute(source.keysUrl, 'keys-url'), { signal }, 'keys_unavailable', 'keys-url'),
    ]);
    kid = await verifySignature(bytes, signature, jwks); // the exact bytes received, not the parsed value
  }
  const { value, text } = parsed ?? parse(bytes, response.status);
  const snapshot = value as Partial<Snapshot> | null;
  // In the order `snapshot verify` checks them; the pins hold without keys-url too (a wrong URL is caught either way).
  if (kid !== undefined && snapshot?.kid !== kid) throw new WidgetError(0, 'kid_mismatch');
  checkFacility(snapshot, source.facility);
  const expiresAt = kid === undefined ? undefined : Date.parse(snapshot?.expires_at ?? '');
  if (expiresAt !== undefined && !(expiresAt > Date.now())) throw new WidgetError(0, 'snapshot_expired');
  if (source.minVersion !== undefined && !((versionOf(snapshot) ?? 0) >= source.minVersion)) {
    throw new WidgetError(0, 'snapshot_rollback');
  }
  // A withdrawn facility's tombstone (contract, "Signed snapshots"): no longer listed, which is not an error.
  if ((value as { state?: string } | null)?.state === 'withdrawn')
    return { listings: [], complete: true, version: text, facility: undefined, empty: 'withdrawn', expiresAt };
  return { ...loadedOf(value, response, text, true), expiresAt };
}

/** The listings of a source; rejects with a WidgetError (or an AbortError once `signal` fires). */
export function loadListings(source: Source, signal: AbortSignal): Promise<Loaded> {
  return source.kind === 'live' ? loadLive(source, signal) : loadSnapshot(source, signal);
}

/** One listing's details from the live API, fetched when the visitor opens them. */
export async function loadDetail(source: LiveSource, id: string, signal: AbortSignal): Promise<Detail> {
  const url = apiUrl(source.apiBase, `external/listings/${encodeURIComponent(id)}`);
  const { response, bytes } = await request(url, {
    cache: 'no-cache',
    headers: { 'X-API-Key': source.apiKey },
    signal,
  });
  const { value } = parse(bytes, response.status);
  if (!isDetail(value)) throw new WidgetError(response.status, 'invalid_response');
  return value;
}
