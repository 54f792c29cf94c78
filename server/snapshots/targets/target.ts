// Where snapshots are published: a folder or an S3-compatible bucket, behind one small interface.

/** The HTTP headers an object carries on object storage (a folder keeps only the bytes). */
export interface ObjectMeta {
  contentType: string;
  cacheControl: string;
}

/** Who takes a lock: a `--watch` publisher holds it for its whole run, so others are told to stop it, not to wait. */
export interface LockHolder {
  watch?: boolean;
}

export interface Target {
  /** How lines and errors name the target: `s3://bucket/prefix` or the folder's absolute path. */
  readonly label: string;
  /** Key of this target's rows in the local publish record (snapshot_published). */
  readonly recordKey: string;
  /** An object's bytes, or undefined when it does not exist. Keys are relative to the target (`wro-1/listings.json`). */
  get(key: string): Promise<Buffer | undefined>;
  /** Writes one whole object: readers see the old bytes or the new ones, never a part. */
  put(key: string, bytes: Uint8Array, meta: ObjectMeta): Promise<void>;
  /** Takes the target's publish lock, so two publishers never interleave; resolves to its release. */
  lock(holder?: LockHolder): Promise<() => Promise<void>>;
  /** Releases connections; the target is not used afterwards. */
  close(): Promise<void>;
}
