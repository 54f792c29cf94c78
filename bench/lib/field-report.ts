// The field mix's report: what ours answered each kind of request on first sight, then the three servers on the mix.
import type { FieldEntry } from './field.ts';
import { table } from './report.ts';

/** The field mix's tables: the mix itself (what ours answered on first sight), then the three servers on it. */
export function fieldTables(e: FieldEntry): string {
  const kinds = Object.entries(e.kinds).map(([kind, k]) => [
    kind,
    `${k.share_pct} %`,
    k.requests,
    k.distinct,
    k.large,
    Object.entries(k.statuses)
      .map(([s, n]) => (Object.keys(k.statuses).length === 1 ? s : `${s} x${n}`))
      .join(', '),
    k.mean_bytes,
    k.first_sight_p50_ms,
    k.first_sight_p99_ms,
    k.first_sight_max_ms,
  ]);
  const sides = (
    [
      ['ours', e.ours],
      ['ceiling (replays ours)', e.ceiling],
      ['peer (Fastify 5)', e.peer],
    ] as const
  ).map(([name, s]) => [
    name,
    s.rps,
    s.p50_ms,
    s.p99_ms,
    s.cpu_us_per_req,
    Math.round(s.core_busy * 100),
    Math.round(s.generator_busy * 100),
    Math.round(s.server_waited * 100),
    s.rss_mb,
  ]);
  return (
    table(
      [
        'kind',
        'share',
        'requests',
        'distinct',
        'to the large facility',
        'status at capture',
        'mean bytes',
        'first sight p50 ms',
        'p99 ms',
        'max ms',
      ],
      kinds,
    ) +
    `(first sight: ours' time for each distinct request when captured, one request at a time; ${e.distinct} distinct of ${e.rotation}, captured in ${e.capture_seconds} s)\n\n` +
    table(
      [
        'server',
        'req/s',
        'p50 ms',
        'p99 ms',
        'CPU µs/req',
        'core %',
        'load gen core %',
        'waited for core %',
        'peak RSS MB',
      ],
      sides,
    ) +
    `ours / ceiling (paired): req/s ${e.ratio_rps} (95 % interval ${e.ratio_rps_interval.join('-')} over ${e.ours.rounds.length} pairs), p99 ${e.ratio_p99}, CPU per request ${e.ratio_cpu}; ours / peer req/s ${e.ratio_rps_vs_peer}\n` +
    'the peer compresses nothing and sends no ETag (its 304 requests get a 200 with the body), and renders its own rental page\n'
  );
}
