// `snapshot export`: every facility's signed listings.json, the JWKS and the PEM public key, written atomically into OUT.
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ListingsError } from '../errors.ts';
import { ImportFacility } from '../schemas/import.ts';
import { Jwks, type Jwk } from '../schemas/listing.ts';
import type { Db } from '../store/db.ts';
import { facilityById, listFacilities } from '../store/facilities.ts';
import { encodeSnapshot, isoSeconds, serialiseSignature, signatureOf, snapshotOf } from './format.ts';
import { lockOutput, replaceFile, replaceSignedFile } from './files.ts';
import { jwkOf, publicPemOf, type SigningKey } from './keygen.ts';
import { readFacility, recordWritten, reserveVersions, type Reserved, type Written } from './versions.ts';

/** Digests are recorded in batches: one small transaction per this many facilities. */
const RECORD_EVERY = 100;

/** The import file's rule for facility ids; ids are also folder names here, so nothing else may pass. */
export const isFacilityId = (id: string): boolean => ImportFacility.shape.id.safeParse(id).success;

export interface ExportOptions {
  outDir: string;
  key: SigningKey;
  publicUrl: string;
  /** Default: every facility. */
  facilityIds?: readonly string[];
  ttlSeconds: number;
  now?: Date;
  /** Facilities in flight at once (their file writes overlap). */
  concurrency?: number;
  onProgress?: (progress: ExportProgress) => void;
}

export interface FacilityExported {
  id: string;
  version: number;
  listings: number;
  bytes: number;
  /** false when the facility and its Details are the same as in the last snapshot written. */
  changed: boolean;
}

export interface ExportProgress {
  facility: FacilityExported;
  done: number;
  total: number;
  elapsedMs: number;
}

export interface ExportSummary {
  out: string;
  kid: string;
  generated_at: string;
  expires_at: string;
  facilities: number;
  listings: number;
  changed: number;
  unchanged: number;
  bytes: number;
  seconds: number;
  results: FacilityExported[];
}

export async function exportSnapshots(db: Db, opts: ExportOptions): Promise<ExportSummary> {
  const started = performance.now();
  const ids = facilityIdsOf(db, opts.facilityIds);
  const out = resolve(opts.outDir);
  const generatedAt = new Date(Math.floor((opts.now ?? new Date()).getTime() / 1000) * 1000);
  await mkdir(out, { recursive: true });
  const run: Run = {
    db, out, opts, generatedAt,
    expiresAt: new Date(generatedAt.getTime() + opts.ttlSeconds * 1000),
    existing: new Set(await readdir(out)), // saves a mkdir per facility on every re-export
  };
  const unlock = await lockOutput(out);
  try {
    // Keys first: a reader who meets a new kid in a listings.json can already find its key.
    await writeKeys(out, opts.key);
    const reserved = reserveVersions(db, ids);
    const results: FacilityExported[] = [];
    let unrecorded: Written[] = [];
    let next = 0;
    let failed = false;
    const worker = async () => {
      while (next < ids.length && !failed) {
        const id = ids[next++]!;
        const { facility, written } = await exportFacility(run, id, reserved.get(id)!);
        results.push(facility);
        unrecorded.push(written);
        if (unrecorded.length >= RECORD_EVERY) {
          recordWritten(db, unrecorded);
          unrecorded = [];
        }
        opts.onProgress?.({ facility, done: results.length, total: ids.length, elapsedMs: performance.now() - started });
      }
    };
    const workers = Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 8, ids.length)) }, () =>
      worker().catch((err: unknown) => {
        failed = true; // the other workers stop after their current facility, before the lock is released
        throw err;
      }),
    );
    const failure = (await Promise.allSettled(workers)).find((s) => s.status === 'rejected');
    recordWritten(db, unrecorded);
    if (failure) throw failure.reason;
    const order = new Map(ids.map((id, i) => [id, i]));
    const changed = results.filter((r) => r.changed).length;
    return {
      out,
      kid: opts.key.kid,
      generated_at: isoSeconds(run.generatedAt),
      expires_at: isoSeconds(run.expiresAt),
      facilities: results.length,
      listings: results.reduce((n, r) => n + r.listings, 0),
      changed,
      unchanged: results.length - changed,
      bytes: results.reduce((n, r) => n + r.bytes, 0),
      seconds: Math.round(performance.now() - started) / 1000,
      results: results.sort((a, b) => order.get(a.id)! - order.get(b.id)!),
    };
  } finally {
    await unlock();
  }
}

interface Run {
  db: Db;
  out: string;
  opts: ExportOptions;
  generatedAt: Date;
  expiresAt: Date;
  existing: Set<string>;
}

/** Build and sign one facility's snapshot from its current rows, and put the pair in place. */
async function exportFacility({ db, out, opts, generatedAt, expiresAt, existing }: Run, id: string, reserved: Reserved) {
  const data = readFacility(db, id);
  if (!data) throw new ListingsError('unknown_facility', `facility "${id}" disappeared during the export`);
  const snapshot = snapshotOf(data, opts.publicUrl, { version: reserved.version, generatedAt, expiresAt, kid: opts.key.kid });
  const { bytes, contentDigest } = encodeSnapshot(snapshot);
  const dir = join(out, id);
  if (!existing.has(id)) await mkdir(dir, { recursive: true });
  await replaceSignedFile(join(dir, 'listings.json'), bytes, join(dir, 'listings.json.sig'), serialiseSignature(signatureOf(bytes, opts.key)));
  const facility: FacilityExported = {
    id, version: reserved.version, listings: snapshot.listings.length, bytes: bytes.length, changed: contentDigest !== reserved.previousDigest,
  };
  return { facility, written: { id, version: reserved.version, contentDigest } };
}

function facilityIdsOf(db: Db, requested: readonly string[] | undefined): string[] {
  if (requested && requested.length > 0) {
    const ids = [...new Set(requested)];
    const unknown = ids.filter((id) => !isFacilityId(id) || !facilityById(db, id));
    if (unknown.length > 0) {
      throw new ListingsError('unknown_facility', `unknown facilit${unknown.length > 1 ? 'ies' : 'y'}: ${unknown.map((id) => `"${id}"`).join(', ')} (see "listings facilities list")`);
    }
    return ids;
  }
  const ids = listFacilities(db).map((f) => f.id);
  if (ids.length === 0) throw new ListingsError('nothing_to_export', 'there are no facilities to export: run "listings import FILE" first');
  return ids;
}

/** OUT/keys/<kid>.pem and OUT/keys.json; keys.json keeps the other kids it lists, so files signed before a rotation still verify. */
async function writeKeys(out: string, key: SigningKey): Promise<void> {
  await mkdir(join(out, 'keys'), { recursive: true });
  await replaceFile(join(out, 'keys', `${key.kid}.pem`), publicPemOf(key.publicKey));
  const path = join(out, 'keys.json');
  let previous: Jwk[] = [];
  const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw new ListingsError('unreadable_file', `${path}: cannot read: ${err.code ?? err.message}`);
  });
  if (text !== undefined) {
    let parsed: ReturnType<typeof Jwks.safeParse> | undefined;
    try {
      parsed = Jwks.safeParse(JSON.parse(text));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) throw new ListingsError('invalid_keys_file', `${path} is not a JWKS of Ed25519 keys; move it away or fix it, then export again`);
    previous = parsed.data.keys;
  }
  const jwks: Jwks = { keys: [jwkOf(key.publicKey), ...previous.filter((k) => k.kid !== key.kid)] };
  await replaceFile(path, `${JSON.stringify(jwks, null, 2)}\n`);
}
