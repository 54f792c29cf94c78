// The abuse scenario's report: one table of every target and pattern, the partner alone and with abuse, and a headline
// table of the ratios in windows and ours' memory through each pattern.
import type { AbuseEntry } from './abuse.ts';
import { table } from './report.ts';

const shares = (statuses: Record<string, number>) => {
  const total = Object.values(statuses).reduce((a, b) => a + b, 0);
  return Object.entries(statuses)
    .map(([st, n]) => `${st} ${Math.round((n * 100) / total)} %`)
    .join(', ');
};

/** Ours' memory through a pattern: before, its peak, and the growth. */
const memory = (e: AbuseEntry) => {
  const growth = e.rss.peak_mb - e.rss.before_mb;
  return `${e.rss.before_mb} -> peak ${e.rss.peak_mb}${e.rss.peak_since === 'start' ? ' (since start)' : ''} (${growth >= 0 ? '+' : ''}${growth}), after ${e.rss.after_mb}`;
};

/** Every abuse target and pattern: the partner alone and with abuse, the abusers' rates and what they got. */
export function abuseTables(entries: readonly AbuseEntry[]): string {
  const rows = entries.flatMap((e) =>
    (
      [
        ['alone', e.alone],
        ['with abuse', e.with_abuse],
      ] as const
    ).map(([condition, s]) => [
      `key of ${e.target.label}`,
      e.pattern,
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
  const headline = entries.map((e) => [
    `key of ${e.target.label}`,
    e.pattern,
    e.in_windows?.alone_p99_ms ?? NaN,
    e.in_windows?.abuse_p99_ms ?? NaN,
    e.in_windows?.ratio_p99 ?? NaN,
    e.ratio_p99_pooled,
    memory(e),
  ]);
  const crawls = entries
    .filter((e) => e.crawl_pass)
    .map(
      (e) =>
        `crawl pass before the rounds (key of ${e.target.label}): ${e.crawl_pass!.pages.toLocaleString('en-US')} pages in ${e.crawl_pass!.seconds} s (${shares(e.crawl_pass!.statuses)})\n`,
    )
    .join('');
  return (
    table(
      [
        'abuser',
        'pattern',
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
    ) +
    crawls +
    `\nthe partner's p99 alone and with each pattern, in ${entries[0]?.in_windows?.window_ms ?? 1000} ms windows of abuse on and off (the headline), and ours' RSS through the pattern (its panel's too: one process):\n` +
    table(
      [
        'abused key',
        'pattern',
        'p99 alone ms',
        'p99 with ms',
        'ratio in windows',
        'ratio in rounds',
        'ours RSS MB: before -> peak (growth), after',
      ],
      headline,
    )
  );
}
