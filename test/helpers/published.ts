// Reading a published target back the way a CDN client would (plain HTTP), and checking the contract's invariant.
import { join } from 'node:path';
import { generateSigningKey } from '../../server/snapshots/format/keygen.ts';
import { verifySnapshot } from '../../server/snapshots/format/verify.ts';
import { demoDb, tempDir } from './fixture.ts';
import type { S3Server } from './s3-server.ts';

export interface Fetched {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

export async function fetchObject(s3: Pick<S3Server, 'objectUrl'>, key: string): Promise<Fetched> {
  const res = await fetch(s3.objectUrl(key));
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

export interface PointerState {
  version: number;
  etag: string | null;
  /** The pointer verifies against the signature of the version it names, whose listings.json has the same bytes. */
  verifies: boolean;
}

/**
 * Each facility's pointer as served now: the invariant that a pointer never names a version whose objects are
 * missing or do not match is checked for every one of them.
 */
export async function bucketState(
  s3: Pick<S3Server, 'objectUrl'>,
  prefix: string,
  facilities: readonly string[],
): Promise<Record<string, PointerState>> {
  const keys = await fetchObject(s3, `${prefix}/keys.json`);
  const state: Record<string, PointerState> = {};
  for (const id of facilities) {
    const pointer = await fetchObject(s3, `${prefix}/${id}/listings.json`);
    if (pointer.status !== 200) continue;
    const { version } = JSON.parse(pointer.bytes.toString()) as { version: number };
    const [bytes, sig] = await Promise.all([
      fetchObject(s3, `${prefix}/${id}/v${version}/listings.json`),
      fetchObject(s3, `${prefix}/${id}/v${version}/listings.json.sig`),
    ]);
    const verifies =
      bytes.status === 200 &&
      sig.status === 200 &&
      bytes.bytes.equals(pointer.bytes) &&
      verifySnapshot(pointer.bytes, sig.bytes.toString(), keys.bytes.toString(), { now: new Date(), facility: id }).ok;
    state[id] = { version, etag: pointer.headers.get('etag'), verifies };
  }
  return state;
}

/** A signing key made as an operator makes one: its private key file and kid. */
export async function snapshotKeyFile(dir: string): Promise<{ keyFile: string; kid: string }> {
  const r = await generateSigningKey(dir);
  return { keyFile: r.private_key, kid: r.kid };
}

/**
 * What a publishing test starts from: a temp folder with a database file (closed) and a signing key in it. The database
 * holds the demo's data, or what `fill` writes into the file it is given.
 */
export async function publishFixture(
  fill?: (dbFile: string) => void,
): Promise<{ dir: string; cleanup: () => void; dbFile: string; keyFile: string }> {
  const { dir, cleanup } = tempDir();
  const file = join(dir, 'listings.db');
  if (fill) fill(file);
  else demoDb(dir).db.close();
  const { keyFile } = await snapshotKeyFile(join(dir, 'secrets'));
  return { dir, cleanup, dbFile: file, keyFile };
}
