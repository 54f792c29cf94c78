// `listings webhooks add|list|remove|rotate|enable|test|deliveries|replay`: endpoints of partners' keys, and their log.
import { Command, InvalidArgumentError } from 'commander';
import { checkEventTypes, EVENT_TYPES } from '../../server/domain/webhook-events.ts';
import { ListingsError } from '../../server/errors.ts';
import { checkEndpointUrl } from '../../server/webhooks/address.ts';
import { allowPrivateOf } from '../../server/webhooks/settings.ts';
import { CLI_ACTOR } from '../../server/store/audit.ts';
import { withStore } from '../context.ts';
import { json, table, type Io } from '../io.ts';
import { checkEndpointFilter, checkKeyFilter } from '../webhook-filters.ts';

const ENDPOINT_COLUMNS = ['id', 'key_id', 'facility_id', 'url', 'events', 'disabled_reason', 'previous_until'];
const DELIVERY_COLUMNS = [
  'id',
  'endpoint_id',
  'message_id',
  'type',
  'status',
  'attempts',
  'next_at',
  'waiting_for',
  'last_code',
  'last_error',
];

function parseEvents(value: string): string[] {
  try {
    return checkEventTypes(value.split(',').map((t) => t.trim()));
  } catch (err) {
    if (err instanceof ListingsError) throw new InvalidArgumentError(`--events: ${err.message}`);
    throw err;
  }
}

function parseDeliveryId(value: string): number {
  if (!/^[1-9]\d{0,15}$/.test(value)) throw new InvalidArgumentError('a delivery id is a number (webhooks deliveries)');
  return Number(value);
}

function secretNote(io: Io, id: string): void {
  io.err(`Secret of endpoint ${id}. Copy it now: it will not be shown again.`);
}

export function webhooksCommand(io: Io): Command {
  const hooks = new Command('webhooks')
    .description("signed webhooks (Standard Webhooks) to partners' endpoints when listings or facilities change")
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings webhooks add --key key_3kT9wQ2mZp8vL1xA --url https://partner.example/hooks\n  $ listings webhooks deliveries --endpoint whe_0123456789abcdef0123',
    );

  hooks
    .command('add')
    .addHelpText(
      'after',
      '\nExample:\n  $ listings webhooks add --key key_3kT9wQ2mZp8vL1xA --url https://partner.example/hooks --events listing.updated',
    )
    .description('add an HTTPS endpoint to a key; its secret (whsec_...) is printed once')
    .requiredOption('--key <key-id>', 'the key whose facility the endpoint hears of (key_...)')
    .requiredOption('--url <url>', 'where events are POSTed: https:// and a public address')
    .option('--events <types>', `comma-separated event types (default: all: ${EVENT_TYPES.join(',')})`, parseEvents)
    .option('--allow-private', 'allow loopback and private addresses, for development (or WEBHOOKS_ALLOW_PRIVATE=1)')
    .option('--json', 'print as JSON (includes the secret)')
    .action(
      async (opts: { key: string; url: string; events?: string[]; allowPrivate?: boolean; json?: boolean }, cmd) => {
        const url = checkEndpointUrl(opts.url, allowPrivateOf(io.env, opts.allowPrivate));
        const events = opts.events ?? [...EVENT_TYPES];
        const { endpoint, secret } = await withStore(cmd, (s) =>
          s.webhooks.add({ keyId: opts.key, url, events }, CLI_ACTOR),
        );
        if (opts.json) io.out(json({ secret, ...endpoint }));
        else {
          io.out(secret);
          secretNote(io, endpoint.id);
        }
      },
    );

  hooks
    .command('list')
    .addHelpText('after', '\nExample:\n  $ listings webhooks list --key key_3kT9wQ2mZp8vL1xA')
    .description('list endpoints (never their secrets), with why one is disabled')
    .option('--key <key-id>', 'only this key')
    .option('--json', 'print as JSON')
    .action(async (opts: { key?: string; json?: boolean }, cmd: Command) => {
      const rows = await withStore(cmd, async (s) => {
        await checkKeyFilter(s, opts.key);
        return s.webhooks.list(opts.key);
      });
      io.out(opts.json ? json(rows) : table(rows, ENDPOINT_COLUMNS));
    });

  hooks
    .command('remove')
    .addHelpText('after', '\nExample:\n  $ listings webhooks remove whe_0123456789abcdef0123')
    .description('remove an endpoint and its delivery log')
    .argument('<endpoint-id>', 'whe_...')
    .action(async (id: string, _opts, cmd: Command) => {
      const e = await withStore(cmd, (s) => s.webhooks.remove(id, CLI_ACTOR));
      io.out(`removed ${e.id} (${e.url})`);
    });

  hooks
    .command('rotate')
    .addHelpText('after', '\nExample:\n  $ listings webhooks rotate whe_0123456789abcdef0123')
    .description('a new secret, printed once; the old one keeps signing beside it for 24 hours')
    .argument('<endpoint-id>', 'whe_...')
    .option('--json', 'print as JSON (includes the secret)')
    .action(async (id: string, opts: { json?: boolean }, cmd: Command) => {
      const { endpoint, secret } = await withStore(cmd, (s) => s.webhooks.rotate(id, CLI_ACTOR));
      if (opts.json) io.out(json({ secret, ...endpoint }));
      else {
        io.out(secret);
        secretNote(io, endpoint.id);
      }
    });

  hooks
    .command('enable')
    .addHelpText('after', '\nExample:\n  $ listings webhooks enable whe_0123456789abcdef0123')
    .description('deliver again to an endpoint a 410 or the last retry disabled')
    .argument('<endpoint-id>', 'whe_...')
    .action(async (id: string, _opts, cmd: Command) => {
      const e = await withStore(cmd, (s) => s.webhooks.enable(id, CLI_ACTOR));
      io.out(`enabled ${e.id} (${e.url})`);
    });

  hooks
    .command('test')
    .addHelpText('after', '\nExample:\n  $ listings webhooks test whe_0123456789abcdef0123')
    .description('queue a webhook.test event for an endpoint (the running server sends it)')
    .argument('<endpoint-id>', 'whe_...')
    .option('--json', 'print as JSON')
    .action(async (id: string, opts: { json?: boolean }, cmd: Command) => {
      const d = await withStore(cmd, (s) => s.webhooks.sendTest(id, CLI_ACTOR));
      io.out(opts.json ? json(d) : table([d], DELIVERY_COLUMNS));
    });

  hooks
    .command('deliveries')
    .addHelpText('after', '\nExample:\n  $ listings webhooks deliveries --endpoint whe_0123456789abcdef0123')
    .description(
      "the delivery log, newest first, below the delivery first in each endpoint's line (the others wait for it): " +
        'status, attempts, next try, answer code',
    )
    .option('--endpoint <endpoint-id>', 'only this endpoint')
    .option('--json', 'print as JSON')
    .action(async (opts: { endpoint?: string; json?: boolean }, cmd: Command) => {
      const { shown, hidden } = await withStore(cmd, async (s) => {
        await checkEndpointFilter(s, opts.endpoint);
        return s.webhooks.deliveryLog(opts.endpoint);
      });
      io.out(opts.json ? json(shown) : table(shown, DELIVERY_COLUMNS));
      if (hidden > 0) io.err(`${hidden} older deliveries not shown.`);
    });

  hooks
    .command('replay')
    .addHelpText('after', '\nExample:\n  $ listings webhooks replay 42')
    .description('send a delivery again, with the same webhook-id and bytes')
    .argument('<delivery-id>', 'its number in "webhooks deliveries"', parseDeliveryId)
    .option('--json', 'print as JSON')
    .action(async (id: number, opts: { json?: boolean }, cmd: Command) => {
      const d = await withStore(cmd, (s) => s.webhooks.replay(id, CLI_ACTOR));
      io.out(opts.json ? json(d) : table([d], DELIVERY_COLUMNS));
    });

  return hooks;
}
