// When a figure is not to be quoted: the bounds past which the machine, not the server, set it, and a one-key
// scenario's figures checked against them.
import type { Entry } from './scenarios.ts';

/** A server that used less than this share of its pinned core was not the bottleneck of its run. */
export const CORE_BOUND = 0.85;
/** The ceiling's CPU per answer moving by more than this across rounds means other load on the machine moved it. */
export const DRIFT_BOUND = 1.25;
/** A server whose event loop waited for its core longer than this share of a round shared the core with others. */
export const WAIT_BOUND = 0.05;

/** The sanity lines for one scenario's entry (none when its figures can be quoted). */
export function entrySanity(generator: string, name: string, entry: Entry): string[] {
  const lines: string[] = [];
  const say = (text: string) => lines.push(`${generator} ${name}: ${text}`);
  if (entry.ratio_rps > 1) say(`ours at ${entry.ratio_rps}x a server that only replays bytes`);
  // Neither server kept its core busy: the generator or the loopback set the pace, and req/s compares those.
  const busiest = Math.max(entry.ours.core_busy, entry.ceiling.core_busy);
  if (busiest < CORE_BOUND)
    say(
      `not server-bound (core busy: ours ${Math.round(entry.ours.core_busy * 100)} %, ceiling ${Math.round(entry.ceiling.core_busy * 100)} %): its req/s ratio measures the load generator; compare CPU µs/req (ratio ${entry.ratio_cpu})`,
    );
  // The ceiling does the same work every round: how far its CPU per answer moved is how far the machine's speed did.
  const probe = entry.ceiling.rounds.map((r) => r.cpu_us_per_req);
  const drift = Math.max(...probe) / Math.min(...probe);
  if (drift > DRIFT_BOUND)
    say(
      `the machine's speed drifted (the ceiling's CPU per answer ranged ${Math.min(...probe)}-${Math.max(...probe)} µs across rounds, ${drift.toFixed(2)}x): only the paired ratios compare the servers, and less exactly`,
    );
  const waited = Math.max(entry.ours.server_waited, entry.ceiling.server_waited);
  if (waited > WAIT_BOUND)
    say(
      `a server waited for its pinned core ${Math.round(waited * 100)} % of the time (median round): other processes had it`,
    );
  return lines;
}
