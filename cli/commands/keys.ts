// `listings keys create|list|revoke|update`: partners' API keys, shown in full only once.
import { Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_KEY_LIMIT, effectiveLimitOf } from '../../server/domain/keys.ts';
import * as domainLimits from '../../server/domain/key-limits.ts';
import { ListingsError } from '../../server/errors.ts';
import { checkRef } from '../../server/domain/key-ref.ts';
import type { KeyInfo, KeyLimits } from '../../server/store/keys.ts';
import { globalsOf, withStore } from '../context.ts';
import { checkFacilityFilter } from '../facility-filter.ts';
import { json, table, type Io } from '../io.ts';

const COLUMNS = [
  'id',
  'facility_id',
  'label',
  'ref',
  'hint',
  'created_at',
  'last_used_at',
  'revoked_at',
  'rate',
  'burst',
  'allowed_origins',
];

/** A key as --json prints it: the stored fields (rate_per_s and burst stay null on the default), plus what the server applies. */
function keyJson(info: KeyInfo) {
  const limit = effectiveLimitOf(info, DEFAULT_KEY_LIMIT);
  return { ...info, effective_rate_per_s: limit.rate, effective_burst: limit.burst };
}

/** A key as the table shows it: the limit the server applies, marked where it is not the key's own. */
function keyRow(info: KeyInfo) {
  const limit = effectiveLimitOf(info, DEFAULT_KEY_LIMIT);
  const burstFrom = info.burst !== null ? '' : info.rate_per_s === null ? ' (default)' : ' (from rate)';
  return {
    ...info,
    rate: `${domainLimits.formatRate(limit.rate)}${info.rate_per_s === null ? ' (default)' : ''}`,
    burst: `${limit.burst}${burstFrom}`,
  };
}

/** A domain refusal as commander's usage error (exit 2), so flags and panel forms share one rule. */
function asArgument<T extends unknown[], R>(parse: (...args: T) => R): (...args: T) => R {
  return (...args) => {
    try {
      return parse(...args);
    } catch (err) {
      if (err instanceof ListingsError) throw new InvalidArgumentError(err.message);
      throw err;
    }
  };
}

/**
 * `default` puts the key back on the server's default, as an empty field does in the panel's form (a word, not null:
 * commander turns a parser's null into '').
 */
const orDefault =
  <T>(parse: (value: string) => T) =>
  (value: string): T | 'default' =>
    value.trim() === 'default' ? 'default' : parse(value);
export const parseRate = asArgument(orDefault(domainLimits.parseRate));
export const parseBurst = asArgument(orDefault(domainLimits.parseBurst));
export const parseRef = asArgument(checkRef);
const parseLabel = asArgument(domainLimits.parseLabel);
export const parseOrigin = asArgument((value: string, previous: string[] = []) => [
  ...previous,
  domainLimits.parseOrigin(value),
]);

/** What --rate and --burst say of a limit left out: a new key gets the server's, an updated key keeps its own. */
const LIMIT_HELP = {
  create: {
    rate: "rate limit for this key, e.g. 20/s, or default for the server's (default: the server default)",
    burst:
      "how many requests may come at once above the rate, or default (5 seconds of the key's rate, else the server's)",
  },
  update: {
    rate: "new rate limit, e.g. 20/s, or default to put the key on the server's (left out: unchanged)",
    burst:
      "new burst above the rate, or default for 5 seconds of the key's rate, else the server's (left out: unchanged)",
  },
} as const;

function limitOptions(cmd: Command, help: (typeof LIMIT_HELP)[keyof typeof LIMIT_HELP]): Command {
  return cmd
    .option('--rate <rate>', help.rate, parseRate)
    .option('--burst <n>', help.burst, parseBurst)
    .option('--allowed-origin <origin>', 'browser origin allowed to use this key (repeatable)', parseOrigin);
}

/** The options `keys create` and `keys update` share. */
interface LimitFlags {
  json?: boolean;
  rate?: number | 'default';
  burst?: number | 'default';
  allowedOrigin?: string[];
}

function limitsOf(opts: LimitFlags): KeyLimits {
  const limits: KeyLimits = {};
  if (opts.rate !== undefined) limits.rate_per_s = opts.rate === 'default' ? null : opts.rate;
  if (opts.burst !== undefined) limits.burst = opts.burst === 'default' ? null : opts.burst;
  if (opts.allowedOrigin !== undefined) limits.allowed_origins = opts.allowedOrigin;
  return limits;
}

export function keysCommand(io: Io): Command {
  const keys = new Command('keys')
    .description("issue, list, update and revoke partners' API keys")
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings keys create --facility wro-1 --label "broker site" --ref broker\n  $ listings keys list --facility wro-1\n  $ listings keys revoke key_3kT9wQ2mZp8vL1xA',
    );

  limitOptions(
    keys
      .command('create')
      .description('issue a key for one facility; the full key is printed once and never stored')
      .requiredOption('--facility <id>', 'the facility the key can read')
      .option(
        '--label <text>',
        'who the key is for, e.g. "partner site" (at most 200 characters, one line)',
        parseLabel,
        '',
      )
      .option(
        '--ref <ref>',
        "the partner's reference its clicks are counted under (default: from the label, else the key id)",
        parseRef,
      )
      .option('--json', 'print as JSON (includes the key)'),
    LIMIT_HELP.create,
  )
    .addHelpText(
      'after',
      '\nExample:\n  $ listings keys create --facility wro-1 --label "broker site" --allowed-origin https://broker.example',
    )
    .action(async (opts: LimitFlags & { facility: string; label: string; ref?: string }, cmd: Command) => {
      const prefix = globalsOf(cmd).keyPrefix;
      const { key, info } = await withStore(cmd, (store) =>
        store.createKey({ facilityId: opts.facility, label: opts.label, prefix, ref: opts.ref, ...limitsOf(opts) }),
      );
      if (opts.json) io.out(json({ key, ...keyJson(info) }));
      else {
        io.out(`${key}`);
        io.err(
          `Key ${info.id} (ref ${info.ref}) for facility ${info.facility_id}, made with KEY_PREFIX=${prefix}: only a server with the same prefix takes it. Copy it now: it will not be shown again (only its SHA-256 digest is stored).`,
        );
      }
    });

  keys
    .command('list')
    .description(
      'list keys (never the keys themselves): id, facility, label, ref, hint, created, last used, revoked, rate limit',
    )
    .option('--facility <id>', 'only this facility')
    .option('--json', 'print as JSON')
    .addHelpText('after', '\nExample:\n  $ listings keys list --facility wro-1')
    .action(async (opts: { facility?: string; json?: boolean }, cmd: Command) => {
      const rows = await withStore(cmd, async (store) => {
        await checkFacilityFilter(store, opts.facility);
        return store.listKeys(opts.facility);
      });
      io.out(opts.json ? json(rows.map(keyJson)) : table(rows.map(keyRow), COLUMNS));
    });

  keys
    .command('revoke')
    .description('revoke a key; the running server refuses it from its next request')
    .argument('<key-id>', 'the key id shown by "keys list" (key_...)')
    .option('--json', 'print as JSON')
    .addHelpText('after', '\nExample:\n  $ listings keys revoke key_3kT9wQ2mZp8vL1xA')
    .action(async (id: string, opts: { json?: boolean }, cmd: Command) => {
      const info = await withStore(cmd, (store) => store.revokeKey(id));
      io.out(
        opts.json
          ? json(keyJson(info))
          : `revoked ${info.id} (facility ${info.facility_id}, ...${info.hint}) at ${info.revoked_at}`,
      );
    });

  limitOptions(
    keys
      .command('update')
      .description("change a key's label, ref, rate limit or allowed origins")
      .argument('<key-id>', 'the key id (key_...)')
      .option('--label <text>', 'new label', parseLabel)
      .option('--ref <ref>', "new partner reference (clicks counted before keep the old one's)", parseRef)
      .addOption(
        // Lifting every restriction while naming origins to allow is a contradiction, not a choice between them.
        new Option('--any-origin', 'remove every origin restriction').conflicts('allowedOrigin'),
      )
      .option('--json', 'print as JSON'),
    LIMIT_HELP.update,
  )
    .addHelpText(
      'after',
      '\nExample:\n  $ listings keys update key_3kT9wQ2mZp8vL1xA --allowed-origin https://a.example --allowed-origin https://b.example',
    )
    .action(
      async (id: string, opts: LimitFlags & { label?: string; ref?: string; anyOrigin?: boolean }, cmd: Command) => {
        const changes = {
          ...limitsOf(opts),
          ...(opts.label !== undefined ? { label: opts.label } : {}),
          ...(opts.ref !== undefined ? { ref: opts.ref } : {}),
          ...(opts.anyOrigin ? { allowed_origins: [] } : {}),
        };
        // Nothing to change is a mistake in the command line, not a change: no write, no audit row.
        if (Object.keys(changes).length === 0) {
          const options = cmd.options.filter((o) => o.long !== '--json').map((o) => o.long);
          cmd.error(`error: keys update changes nothing; give at least one of ${options.join(', ')}`);
        }
        const info = await withStore(cmd, (store) => store.updateKey(id, changes));
        io.out(opts.json ? json(keyJson(info)) : table([keyRow(info)], COLUMNS));
      },
    );

  return keys;
}
