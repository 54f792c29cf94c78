// `snapshot follow --watch`: follows again every few seconds (a 304 on the feed's head while nothing moved), backing off on errors.
import { ListingsError } from '../../errors.ts';
import { checkFolder } from '../files.ts';
import { followOnce, type FollowOptions, type FollowSummary } from './follow.ts';
import { sleep } from '../publish/watch.ts';

export interface FollowWatchOptions extends FollowOptions {
  /** Aborting it ends the watch after the run in flight. */
  signal: AbortSignal;
  pollMs?: number;
  maxBackoffMs?: number;
  /** Each run that changed the mirror, and the first one. */
  onFollow(summary: FollowSummary): void;
  /** A run failed: nothing was applied; the next try is in retryInMs. */
  onRetry(error: ListingsError, retryInMs: number): void;
}

export async function followAndWatch(opts: FollowWatchOptions): Promise<void> {
  const pollMs = opts.pollMs ?? 5000;
  let wait = pollMs;
  let first = true;
  await checkFolder(opts.dir); // a file where the mirror goes is no failure that waiting mends
  while (!opts.signal.aborted) {
    try {
      const summary = await followOnce(opts);
      if (first || summary.mode !== 'unchanged') opts.onFollow(summary);
      first = false;
      wait = pollMs;
    } catch (err) {
      if (!(err instanceof ListingsError)) throw err;
      opts.onRetry(err, wait);
      await sleep(wait, opts.signal);
      wait = Math.min(wait * 2, opts.maxBackoffMs ?? 300_000);
      continue;
    }
    await sleep(wait, opts.signal);
  }
}
