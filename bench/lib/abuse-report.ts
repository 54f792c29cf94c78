// The abuse scenario's report: one table for every abused key, the partner alone and with abuse, and the ratios.
import type { AbuseEntry } from './abuse.ts';
import { table } from './report.ts';

const shares = (statuses: Record<string, number>) => {
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  return Object.entries(statuses)
    .map(([st, n]) => `${st} ${Math.round((n * 100) / total)} %`)
    .join(', ');
};

/** The figure of abuse switched on and off in windows (abuse.ts, measureInWindows). */
export function inWindows(w: NonNullable<AbuseEntry['in_windows']>): string {
  return `in ${w.window_ms / 1000} s windows, abuse on and off by turns (${w.windows} of each, the first ${w.guard_ms} ms of each left out): p99 ${w.abuse_p99_ms} ms with abuse / ${w.alone_p99_ms} ms alone = ${w.ratio_p99}`;
}

/** One table for every abuse target: the partner alone and with abuse, the abusers' rates and what they got. */
export function abuseTables(entries: readonly AbuseEntry[]): string {
  const rows = entries.flatMap((e) =>
    (
      [
        ['alone', e.alone],
        ['with abuse', e.with_abuse],
      ] as const
    ).map(([condition, s]) => [
      `key of ${e.target.label}`,
      condition,
      s.partner_requests,
      s.p50_ms,
      s.p99_ms,
      s.max_ms,
      Math.round(s.core_busy * 100),
      Math.round(s.server_waited * 100),
      `${s.client_delay_p99_ms} / ${s.client_delay_max_ms}`,
      s.abusers?.map((a) => `${a.mode} ${a.rps.toLocaleString('en-US')}/s (${shares(a.statuses)})`).join('; ') ?? '',
    ]),
  );
  const ratios = entries
    .map(
      (e) =>
        `key of ${e.target.label}: the partner's p99 with abuse / alone ${e.ratio_p99_pooled} (all rounds pooled), ${e.ratio_p99_paired} (median of per-round ratios); p50 ${e.ratio_p50_pooled}\n` +
        (e.in_windows ? `  ${inWindows(e.in_windows)}\n` : ''),
    )
    .join('');
  return (
    table(
      [
        'abuser',
        'partner',
        'requests',
        'p50 ms',
        'p99 ms',
        'max ms',
        'ours core %',
        'ours waited for core %',
        'partner client loop delay p99 / max ms',
        'abusers: answers per second (statuses)',
      ],
      rows,
    ) + ratios
  );
}
