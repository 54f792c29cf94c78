// `listings snapshot publish`: signed snapshots onto a folder or an S3-compatible bucket, once or continuously (--watch).
import { Command, Option } from 'commander';
import { loadSigningKey } from '../../server/snapshots/format/keygen.ts';
import { publishSnapshots, type PublishProgress, type PublishSummary } from '../../server/snapshots/publish/publish.ts';
import { openTarget, parseTarget } from '../../server/snapshots/targets/open.ts';
import { watchAndPublish } from '../../server/snapshots/publish/watch.ts';
import { withLedger } from '../context.ts';
import { json, type Io } from '../io.ts';
import { unsetWhenEmpty } from '../settings.ts';
import {
  parseFacilityId,
  parsePositiveInt,
  parseTtl,
  loopbackRentLinks,
  publicUrlOf,
  publicUrlOptions,
  TTL_DEFAULT_SECONDS,
  type PublicUrlFlags,
} from './snapshot-args.ts';
import { progressReporter } from './snapshot-progress.ts';

/** A progress bar only for publishes this large, and only on a terminal. */
const BAR_FROM = 50;

interface PublishFlags extends PublicUrlFlags {
  to: string;
  signingKey: string;
  endpoint?: string;
  region?: string;
  pathStyle?: boolean;
  facility?: string[];
  ttl?: number;
  concurrency: number;
  force?: boolean;
  watch?: boolean;
  json?: boolean;
}

export function publishCommand(io: Io): Command {
  const publish = new Command('publish')
    .description(
      'publish signed snapshots to s3://BUCKET/PREFIX (AWS S3, R2, GCS, MinIO) or a folder: each changed facility as an immutable v<version>/ pair, then its pointer',
    )
    .requiredOption('--to <target>', 's3://BUCKET/PREFIX or a folder path', (value) => (parseTarget(value), value))
    .requiredOption('--signing-key <file>', 'the private key from "snapshot keygen"')
    .addOption(
      new Option('--endpoint <url>', 'S3-compatible endpoint (R2, GCS, MinIO); default AWS')
        .env('AWS_ENDPOINT_URL_S3')
        .argParser(unsetWhenEmpty((v) => v)),
    )
    .addOption(
      new Option('--region <region>', 'bucket region (default us-east-1; R2: auto)')
        .env('AWS_REGION')
        .argParser(unsetWhenEmpty((v) => v)),
    )
    .option(
      '--path-style',
      'address the bucket as ENDPOINT/BUCKET instead of BUCKET.ENDPOINT (MinIO and most local stores)',
    )
    .option('--facility <id>', 'only this facility (repeatable; default: all)', parseFacilityId)
    .option(
      '--ttl <duration>',
      'how long each version stays valid: s, m, h or d (default 7d); re-signed when half of it is left',
      parseTtl,
    );
  return publicUrlOptions(publish)
    .option('--concurrency <n>', 'facilities uploaded at once', parsePositiveInt, 16)
    .option('--force', 'publish every facility, changed or not')
    .option(
      '--watch',
      'keep running: publish each committed change within seconds, re-sign before expiry, retry failures; stop with SIGTERM',
    )
    .option('--json', 'print each summary as JSON')
    .addHelpText(
      'after',
      [
        "\nCredentials come from the AWS SDK's standard chain: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, SSO, instance roles.",
        '\nExamples:',
        '  $ listings snapshot publish --to s3://listings-cdn/v1 --signing-key data/secrets/signing-key.pem',
        '  $ listings snapshot publish --to s3://listings --endpoint http://127.0.0.1:9000 --path-style --signing-key data/secrets/signing-key.pem --watch',
        '  $ listings snapshot publish --to data/public --signing-key data/secrets/signing-key.pem',
      ].join('\n'),
    )
    .action(async (flags: PublishFlags, cmd: Command) => {
      const publicUrl = publicUrlOf(flags);
      // AWS_REGION and AWS_ENDPOINT_URL_S3 are often set for other tools: only as flags do they refuse a folder target.
      const s3Only = (name: 'endpoint' | 'region') =>
        parseTarget(flags.to).kind === 's3' || cmd.getOptionValueSource(name) === 'cli' ? flags[name] : undefined;
      // Before the signing key is read: options that do not go together are a usage error, whatever else is wrong.
      const target = await openTarget(flags.to, {
        endpoint: s3Only('endpoint'),
        region: s3Only('region'),
        pathStyle: flags.pathStyle,
        env: io.env,
      });
      try {
        const key = await loadSigningKey(flags.signingKey);
        if (key.warning) io.err(`warning: ${key.warning}`);
        const options = {
          target,
          key,
          publicUrl,
          facilityIds: flags.facility,
          ttlSeconds: flags.ttl ?? TTL_DEFAULT_SECONDS,
          concurrency: flags.concurrency,
        };
        // One-shot: a bar on a terminal, a few lines on a pipe (as export). Watch: one line per publish, a bar for large ones.
        const progress = progressReporter(io, { bar: io.isTTY && !flags.json, verb: 'publish' });
        const watchBar =
          io.isTTY && !flags.json ? (p: PublishProgress) => p.total >= BAR_FROM && progress(p) : undefined;
        await withLedger(cmd, async (ledger, audit) => {
          const loopback = await loopbackRentLinks(ledger, publicUrl, flags.facility);
          if (!flags.watch) {
            const summary = await publishSnapshots(ledger, {
              ...options,
              audit,
              force: flags.force ?? false,
              onProgress: progress,
            });
            io.out(flags.json ? json(summary) : summaryText(summary));
            if (loopback) io.err(`warning: ${loopback}`); // after, so that a publish that fails says only why
            return;
          }
          if (loopback) io.err(`warning: ${loopback}`);
          io.err(`watching for changes; publishing to ${target.label} (stop with SIGTERM or Ctrl-C)`);
          await untilSignalled((signal) =>
            watchAndPublish(ledger, {
              ...options,
              audit,
              signal,
              onProgress: watchBar,
              onPublish: (s) =>
                io.out(flags.json ? JSON.stringify(s) : `${new Date().toISOString()} ${summaryLine(s)}`),
              onRetry: (err, ms) =>
                io.err(
                  `${new Date().toISOString()} publish failed, retrying in ${Math.round(ms / 1000)} s: ${err.message}`,
                ),
              onWaiting: (message) => io.err(`${new Date().toISOString()} waiting: ${message}`),
            }),
          );
          io.err('stopped: the facilities in flight were finished and the lock released');
        });
      } finally {
        await target.close();
      }
    });
}

/** Runs `task` until SIGTERM or SIGINT aborts its signal; the task then finishes what is in flight and resolves. */
export async function untilSignalled(task: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  try {
    await task(controller.signal);
  } finally {
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
  }
}

function summaryLine(s: PublishSummary): string {
  if (s.objects === 0)
    return `${s.target}: nothing to publish: ${s.facilities - s.withdrawn} facilities unchanged and fresh${withdrawnText(s)}, 0 objects uploaded`;
  const first = s.results
    .slice(0, 3)
    .map((r) => `${r.id} v${r.version}`)
    .join(', ');
  const more = s.results.length > 3 ? ` and ${s.results.length - 3} more` : '';
  const tombstones = s.tombstones > 0 ? `${s.tombstones} tombstone${s.tombstones > 1 ? 's' : ''}` : '';
  const what = first || tombstones || (s.keys_updated ? 'keys' : 'index.json and the feed');
  return `${s.target}: published ${what}${more}: ${s.objects} objects, ${(s.bytes / 1024).toFixed(1)} KiB in ${s.seconds.toFixed(2)} s${s.stopped ? ' (stopped early)' : ''}`;
}

/** Withdrawn facilities are neither published nor unchanged: a publish passes them over until one names them. */
const withdrawnText = (s: PublishSummary) => (s.withdrawn > 0 ? ` (${s.withdrawn} withdrawn, not published)` : '');

function summaryText(s: PublishSummary): string {
  if (s.objects === 0) {
    const listed = s.facilities - s.withdrawn;
    return `nothing to publish: ${listed === s.facilities ? 'all ' : ''}${listed} facilities are unchanged, signed by ${s.kid} and fresh${withdrawnText(s)}; uploaded 0 objects to ${s.target}`;
  }
  return [
    `published ${s.published} of ${s.facilities} facilities (${s.skipped} unchanged and skipped${s.withdrawn > 0 ? `, ${s.withdrawn} withdrawn` : ''})${s.tombstones > 0 ? ` and signed ${s.tombstones} tombstone(s) again` : ''}, ${s.objects} objects, ${(s.bytes / 1024).toFixed(1)} KiB in ${s.seconds.toFixed(2)} s`,
    `  to       ${s.target}`,
    `  kid      ${s.kid}${s.keys_updated ? ' (keys.json updated)' : ''}`,
    `  expires  ${s.expires_at} (generated ${s.generated_at})`,
  ].join('\n');
}
