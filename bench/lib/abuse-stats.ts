// The abuse scenario's statistics: the partner's latencies of each condition summarised, and sorted by window.
import type { OpenLoopResult } from './open-loop.ts';
import { median } from './report.ts';

/** One round of one condition: the partner's run, ours' core, and what the abusers sent and got. */
export interface Condition {
  partner: OpenLoopResult;
  /** Ours' share of its core during the partner's traffic (with abuse: the abusers' too). */
  core_busy: number;
  /** Share of the time ours' event loop waited for its core while ready to run. */
  server_waited: number;
  abusers?: { mode: string; sent: number; rps: number; statuses: Record<string, number> }[];
}

export interface Summary {
  partner_requests: number;
  p50_ms: number;
  p99_ms: number;
  max_ms: number;
  partner_statuses: Record<string, number>;
  partner_failed: number;
  core_busy: number;
  server_waited: number;
  /** The partner's client's own event-loop delay (ms), p99 of the median round and the largest: its stalls would count
   * in its latencies. */
  client_delay_p99_ms: number;
  client_delay_max_ms: number;
  abusers?: { mode: string; rps: number; statuses: Record<string, number> }[];
  rounds: { p50_ms: number; p99_ms: number; core_busy: number; server_waited: number }[];
}

/** The values in ascending order, sorted in place. */
export const ascending = (xs: number[]) => xs.sort((a, b) => a - b);

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
export const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** The values' statuses added up by status. */
export function mergeStatuses(all: readonly Record<string, number>[]): Record<string, number> {
  const merged: Record<string, number> = {};
  for (const statuses of all) for (const [st, n] of Object.entries(statuses)) merged[st] = (merged[st] ?? 0) + n;
  return merged;
}

export function summarise(conditions: Condition[]): Summary {
  const all = ascending(conditions.flatMap((c) => c.partner.latencies));
  const summary: Summary = {
    partner_requests: all.length,
    p50_ms: round3(percentile(all, 50)),
    p99_ms: round3(percentile(all, 99)),
    max_ms: round3(all.at(-1)!),
    partner_statuses: mergeStatuses(conditions.map((c) => c.partner.statuses)),
    partner_failed: conditions.reduce((a, c) => a + c.partner.failed, 0),
    core_busy: median(conditions.map((c) => c.core_busy)),
    server_waited: median(conditions.map((c) => c.server_waited)),
    client_delay_p99_ms: round3(median(conditions.map((c) => c.partner.client_delay.p99_ms))),
    client_delay_max_ms: round3(Math.max(...conditions.map((c) => c.partner.client_delay.max_ms))),
    rounds: conditions.map((c) => {
      const sorted = ascending([...c.partner.latencies]);
      return {
        p50_ms: round3(percentile(sorted, 50)),
        p99_ms: round3(percentile(sorted, 99)),
        core_busy: c.core_busy,
        server_waited: c.server_waited,
      };
    }),
  };
  if (conditions[0]?.abusers) {
    summary.abusers = conditions[0].abusers.map((a, j) => ({
      mode: a.mode,
      rps: Math.round(median(conditions.map((c) => c.abusers![j]!.rps))),
      statuses: mergeStatuses(conditions.map((c) => c.abusers![j]!.statuses)),
    }));
  }
  return summary;
}

/** When abuse was switched on or off. */
export interface Switch {
  at: number;
  abuse: boolean;
}

/**
 * The partner's latencies by the window each request was due in (the last switch at or before its due time), leaving
 * out those due within `guard` ms of their window's start and those due before the first switch.
 */
export function byWindow(
  result: Pick<OpenLoopResult, 'latencies' | 'due'>,
  switches: readonly Switch[],
  guard: number,
): { alone: number[]; abuse: number[] } {
  const out = { alone: [] as number[], abuse: [] as number[] };
  result.latencies.forEach((latency, i) => {
    const due = result.due[i]!;
    const window = switches.findLast((w) => w.at <= due);
    if (window && due - window.at >= guard) out[window.abuse ? 'abuse' : 'alone'].push(latency);
  });
  return out;
}
