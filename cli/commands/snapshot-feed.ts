// `listings snapshot withdraw|follow`: a facility out of the published index and feed, and a verified mirror of a target.
import { Command } from 'commander';
import { ListingsError } from '../../server/errors.ts';
import { loadSigningKey } from '../../server/snapshots/format/keygen.ts';
import { openTarget, parseFolder, parseTarget } from '../../server/snapshots/targets/open.ts';
import { withLedger } from '../context.ts';
import { json, type Io } from '../io.ts';
import { facilityIdArgument, parsePositiveInt, parseTtl, TTL_DEFAULT_SECONDS } from './snapshot-args.ts';
import { progressBar } from './snapshot-progress.ts';
import { untilSignalled } from './snapshot-publish.ts';
import type { FollowSummary } from '../../server/snapshots/follow/follow.ts';

export function withdrawCommand(io: Io): Command {
  return new Command('withdraw')
    .description(
      "replace a facility's pointer with a signed tombstone (a new version), add a withdrawn item to the change feed and drop it from index.json; a later publish skips it until it is published again by name",
    )
    .argument(
      '<facility>',
      'the facility id, as published (it need not be in the database any more)',
      facilityIdArgument,
    )
    .requiredOption('--to <target>', 's3://BUCKET/PREFIX or a folder path', (value) => (parseTarget(value), value))
    .requiredOption('--signing-key <file>', 'the private key from "snapshot keygen"')
    .option('--endpoint <url>', 'S3-compatible endpoint (R2, GCS, MinIO); default AWS')
    .option('--path-style', 'address the bucket as ENDPOINT/BUCKET (MinIO and most local stores)')
    .option('--ttl <duration>', 'how long the tombstone stays valid: s, m, h or d (default 7d)', parseTtl)
    .option('--json', 'print the result as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings snapshot withdraw wro-9 --to data/public --signing-key data/secrets/signing-key.pem\n  $ listings snapshot publish --to data/public --signing-key data/secrets/signing-key.pem --facility wro-9   # list it again',
    )
    .action(
      async (
        facility: string,
        flags: { to: string; signingKey: string; endpoint?: string; pathStyle?: boolean; ttl?: number; json?: boolean },
        cmd: Command,
      ) => {
        const target = await openTarget(flags.to, {
          endpoint: flags.endpoint,
          pathStyle: flags.pathStyle,
          env: io.env,
        });
        try {
          const key = await loadSigningKey(flags.signingKey);
          if (key.warning) io.err(`warning: ${key.warning}`);
          const { withdrawFacility } = await import('../../server/snapshots/publish/withdraw.ts');
          const r = await withLedger(cmd, (ledger, audit) =>
            withdrawFacility(ledger, {
              target,
              key,
              facilityId: facility,
              ttlSeconds: flags.ttl ?? TTL_DEFAULT_SECONDS,
              audit,
            }),
          );
          io.out(
            flags.json
              ? json(r)
              : `${r.first ? 'withdrew' : 'signed the tombstone again for'} ${r.facility} on ${r.target}: tombstone v${r.version} (withdrawn ${r.withdrawn_at}, expires ${r.expires_at}), ${r.feed_items} feed item`,
          );
        } finally {
          await target.close();
        }
      },
    );
}

interface FollowFlags {
  keys: string;
  state: string;
  watch?: boolean;
  interval: number;
  json?: boolean;
}

export function followCommand(io: Io): Command {
  return new Command('follow')
    .description(
      'keep DIR as a verified mirror of a published target: the first run reads index.json and every facility, later runs walk the change feed from the cursor and fetch only facilities whose version grew; nothing is applied unless every file verified',
    )
    .argument('<base-url>', 'the published folder: an http(s) URL, a file URL or a path')
    .requiredOption('--keys <url>', "the operator's keys.json (URL or path), the trust anchor")
    .requiredOption('--state <dir>', 'the mirror folder; its cursor is DIR/.follow/state.json', parseFolder('--state'))
    .option('--watch', 'keep following: poll the feed head with If-None-Match, back off on errors; stop with SIGTERM')
    .option('--interval <seconds>', 'seconds between polls with --watch', parsePositiveInt, 30)
    .option('--json', 'print each summary as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings snapshot follow https://cdn.example/snapshots --keys https://operator.example/keys.json --state data/mirror\n  $ listings snapshot follow data/public --keys data/public/keys.json --state data/mirror --watch --interval 10',
    )
    .action(async (base: string, flags: FollowFlags, cmd: Command) => {
      if (!flags.watch && cmd.getOptionValueSource('interval') === 'cli')
        throw new ListingsError('invalid_config', '--interval applies with --watch only: add --watch, or leave it out');
      const { followOnce } = await import('../../server/snapshots/follow/follow.ts');
      const bar = io.isTTY && !flags.json ? progressBar(io, 'following') : undefined;
      const started = performance.now();
      const onProgress = bar
        ? (p: { done: number; total: number }) => p.total > 0 && bar({ ...p, elapsedMs: performance.now() - started })
        : undefined;
      const options = { base, keys: flags.keys, dir: flags.state, onProgress };
      const print = (s: FollowSummary) => io.out(flags.json ? JSON.stringify(s) : followLine(s));
      if (!flags.watch) return print(await followOnce(options));
      const { followAndWatch } = await import('../../server/snapshots/follow/watch.ts');
      await untilSignalled((signal) =>
        followAndWatch({
          ...options,
          signal,
          pollMs: flags.interval * 1000,
          onFollow: print,
          onRetry: (err: ListingsError, ms: number) =>
            io.err(
              `${new Date().toISOString()} nothing applied, retrying in ${Math.round(ms / 1000)} s: ${err.message}`,
            ),
        }),
      );
    });
}

function followLine(s: FollowSummary): string {
  if (s.mode === 'unchanged')
    return `unchanged: the feed is at seq ${s.seq}, ${s.listed} facilities mirrored (${s.reads.length} read)`;
  const how = s.mode === 'index' ? 'from the index' : 'from the feed';
  const why = s.start_over ? `started over from the index: ${s.start_over}\n` : '';
  return `${why}mirrored ${how}: ${s.listed} facilities listed, ${s.fetched} fetched, ${s.withdrawn} withdrawn${s.renewed ? `, ${s.renewed} tombstone(s) signed again` : ''}${s.removed ? `, ${s.removed} removed` : ''}; cursor seq ${s.seq}; ${s.reads.length} files read in ${s.seconds.toFixed(2)} s`;
}
