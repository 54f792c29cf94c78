// A follower's mirror folder: verified files staged aside, moved into place together, the cursor written last.
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { z } from 'zod';
import { ListingsError } from '../../errors.ts';
import { removeEmptyFolders, replaceFile, writeDurable } from '../files.ts';

export const STATE_DIR = '.follow';
const STATE_FILE = 'state.json';
const STAGING = 'staging';

export const FollowState = z.object({
  base: z.string(),
  /** The last feed item applied: the cursor. */
  seq: z.int().min(0),
  /** SHA-256 of the feed head last read, and its ETag: an unchanged head means nothing to do. */
  head_digest: z.string(),
  head_etag: z.string().optional(),
  /** When the head last taken stops vouching for the mirror: an unchanged head past it is refused as stale. */
  head_expires_at: z.string().optional(),
  index_version: z.int().min(0),
  /**
   * What the mirror holds per facility; digest null for a tombstone. A tombstone also keeps when half its validity has
   * passed and the kid that signed it: from then (or once another key signs the index) the follower looks for its
   * re-signed version, which the feed never names.
   */
  facilities: z.record(
    z.string(),
    z.object({
      version: z.int().positive(),
      digest: z.string().nullable(),
      renew_at: z.string().optional(),
      kid: z.string().optional(),
    }),
  ),
});
export type FollowState = z.infer<typeof FollowState>;

export async function readState(dir: string): Promise<FollowState | undefined> {
  const path = join(dir, STATE_DIR, STATE_FILE);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ListingsError('unreadable', `${path}: cannot read: ${(err as NodeJS.ErrnoException).code}`);
  }
  let parsed;
  try {
    parsed = FollowState.safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success)
    throw new ListingsError('invalid_state', `${path} is not a follower's state: remove the folder to start over`);
  return parsed.data;
}

/** One run's changes to the mirror: nothing reaches DIR until apply(), which writes the cursor last. */
export class MirrorBatch {
  private readonly staged: string[] = [];
  private readonly removed: string[] = [];
  private readonly staging: string;
  /** The first folder staging made (DIR itself on a first run into a new folder), for discard() to remove. */
  private made: string | undefined;

  constructor(private readonly dir: string) {
    this.staging = join(dir, STATE_DIR, STAGING);
  }

  /** A verified file, kept aside until the whole batch has verified. */
  async stage(rel: string, bytes: Uint8Array): Promise<void> {
    const path = join(this.staging, rel);
    const made = await mkdir(dirname(path), { recursive: true });
    this.made ??= made;
    await writeDurable(path, bytes);
    this.staged.push(rel);
  }

  /** A facility the mirror no longer lists (a run that started over from the index). */
  remove(rel: string): void {
    this.removed.push(rel);
  }

  get size(): number {
    return this.staged.length + this.removed.length;
  }

  /** Moves the files in, in the order they were staged, then records the state: a crash in between only repeats work. */
  async apply(state: FollowState): Promise<void> {
    for (const rel of this.staged) {
      const to = join(this.dir, rel);
      await mkdir(dirname(to), { recursive: true });
      await rename(join(this.staging, rel), to);
    }
    for (const rel of this.removed) await rm(join(this.dir, rel), { recursive: true, force: true });
    await replaceFile(join(this.dir, STATE_DIR, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
    await this.discard();
  }

  /** Removes what is staged, and the folders staging made while they are empty: a refused run leaves DIR as it was. */
  async discard(): Promise<void> {
    await rm(this.staging, { recursive: true, force: true });
    if (this.made) await removeEmptyFolders(join(this.dir, STATE_DIR), this.made);
  }
}
