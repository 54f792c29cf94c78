// `listings panel`: the operator's panel on its own port, 127.0.0.1 by default, apart from the public API.
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseTrustedProxies } from '../../server/http/transport/client-address.ts';
import { requireTwoFactorOf } from '../../server/panel/two-factor.ts';
import { startPanel } from '../../server/panel/server.ts';
import { createLogger, type Logger } from '../../server/logger.ts';
import type { PanelSnapshots } from '../../server/panel/snapshots.ts';
import { ListingsError } from '../../server/errors.ts';
import { loadSigningKey } from '../../server/snapshots/format/keygen.ts';
import { openTarget, parseTarget } from '../../server/snapshots/targets/open.ts';
import { parseTtl, TTL_DEFAULT_SECONDS } from './snapshot-args.ts';
import { openStore } from '../../server/store/store.ts';
import { globalsOf } from '../context.ts';
import type { Io } from '../io.ts';
import { trustProxyOption, unsetWhenEmpty } from '../settings.ts';
import { allowPrivateOf } from '../../server/webhooks/settings.ts';
import { onStopSignals } from '../../server/stop-signals.ts';

export const PANEL_DEFAULT_PORT = 8788;

export interface PanelFlags {
  host: string;
  port: number;
  panelUrl: string;
  publicUrl: string;
  trustProxy: string;
  publishTo?: string;
  signingKey?: string;
  ttl?: number;
  /** Endpoints added in the panel may name loopback and private addresses (as `webhooks add --allow-private`). */
  webhooksAllowPrivate?: boolean;
  /** Where its port is chosen, as a message names it: `--port/PANEL_PORT`, or under `serve --panel` PANEL_PORT alone. */
  portOption?: string;
}

/** "Publish now" needs both a target and a key; each without the other, or --ttl without them, is a usage error. */
async function snapshotsOf(flags: PanelFlags, io: Io): Promise<PanelSnapshots | undefined> {
  if (flags.publishTo === undefined && flags.signingKey === undefined) {
    if (flags.ttl !== undefined)
      throw new ListingsError(
        'invalid_config',
        '--ttl applies with --publish-to only: add --publish-to, or leave it out',
      );
    return undefined;
  }
  if (flags.publishTo === undefined || flags.signingKey === undefined)
    throw new ListingsError('invalid_config', '--publish-to and --signing-key go together');
  const s3 = parseTarget(flags.publishTo).kind === 's3';
  const target = await openTarget(flags.publishTo, {
    env: io.env,
    ...(s3 ? { endpoint: io.env.AWS_ENDPOINT_URL_S3, region: io.env.AWS_REGION } : {}),
  });
  const key = await loadSigningKey(flags.signingKey);
  if (key.warning) io.err(`warning: ${key.warning}`);
  return { target, key, ttlSeconds: flags.ttl ?? TTL_DEFAULT_SECONDS };
}

export function parsePort(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port from 0 to 65535');
  return n;
}

function parseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (/^https?:$/.test(url.protocol)) return url.origin;
  } catch {
    // refused below, as any other scheme
  }
  throw new InvalidArgumentError('expected an http:// or https:// URL');
}

export function panelCommand(io: Io): Command {
  return new Command('panel')
    .description("serve the operator's panel: facilities, keys, import, audit log (accounts: listings operators)")
    .addOption(
      new Option('--host <host>', 'address to listen on')
        .env('PANEL_HOST')
        .argParser(unsetWhenEmpty((v) => v))
        .default('127.0.0.1'),
    )
    .addOption(
      new Option('--port <port>', 'port to listen on')
        .env('PANEL_PORT')
        .argParser(unsetWhenEmpty(parsePort))
        .default(PANEL_DEFAULT_PORT),
    )
    .addOption(
      new Option('--panel-url <url>', 'URL operators reach the panel at (https: cookies are Secure)')
        .env('PANEL_URL')
        .argParser(unsetWhenEmpty(parseUrl))
        .default('', 'http://HOST:PORT'),
    )
    .addOption(
      new Option('--public-url <url>', "the API's URL, for the embed snippet")
        .env('PUBLIC_URL')
        .argParser(unsetWhenEmpty(parseUrl))
        .default('http://127.0.0.1:8787'),
    )
    .addOption(trustProxyOption())
    .option(
      '--publish-to <target>',
      'where "publish now" publishes: s3://BUCKET/PREFIX or a folder',
      (v) => (parseTarget(v), v),
    )
    .option('--signing-key <file>', 'the private key from "snapshot keygen" (with --publish-to)')
    .option('--ttl <duration>', 'how long each published version stays valid (default 7d)', parseTtl)
    .option(
      '--webhooks-allow-private',
      'let endpoints added in the panel name loopback and private addresses (WEBHOOKS_ALLOW_PRIVATE=1)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings panel\n  $ PANEL_URL=https://panel.example.com listings panel --port 8788',
    )
    .action(async (flags: PanelFlags, cmd: Command) => {
      const { db, keyPrefix } = globalsOf(cmd);
      const panel = await runPanel(flags, io, db, keyPrefix);
      // Kept while the panel closes: a second signal must not cut its close short.
      let stopListening = () => {};
      await new Promise<void>((resolve) => (stopListening = onStopSignals(() => resolve())));
      await panel.close();
      stopListening();
    });
}

/** The panel on its own port over its own store connection, with its banner printed: `panel` and `serve --panel`. */
export async function runPanel(
  flags: PanelFlags,
  io: Io,
  db: string,
  keyPrefix: string,
  logger: Logger = createLogger().logger,
): Promise<{ close(): Promise<void> }> {
  // Checked by the option's parser already, as serve checks it.
  const trustedProxies = parseTrustedProxies(flags.trustProxy);
  const require2fa = requireTwoFactorOf(io.env);
  const snapshots = await snapshotsOf(flags, io);
  const store = await openStore(db, { mustExist: true });
  const panel = await startPanel({
    store,
    host: flags.host,
    port: flags.port,
    origin: flags.panelUrl ? { origin: flags.panelUrl, secure: flags.panelUrl.startsWith('https:') } : undefined,
    publicUrl: flags.publicUrl,
    keyPrefix,
    trustedProxies,
    snapshots,
    require2fa,
    webhooksAllowPrivate: allowPrivateOf(io.env, flags.webhooksAllowPrivate),
    logger,
    portOption: flags.portOption,
  }).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  io.err(
    `storage-listings panel for ${store.location} at ${panel.url} (log in at ${flags.panelUrl || panel.url}/login)`,
  );
  return {
    async close() {
      await panel.close();
      await store.close();
    },
  };
}

/**
 * `serve --panel`: the panel's settings from PANEL_HOST, PANEL_PORT and PANEL_URL, as `listings panel` reads them, and
 * PANEL_REQUIRE_2FA checked with them: read before the API listens, so a bad one stops start-up rather than a panel
 * beside a running API. The public URL comes once the API listens (the port it got).
 */
export function panelFlagsFromEnv(
  env: NodeJS.ProcessEnv,
  trustProxy: string,
  webhooksAllowPrivate?: boolean,
): Omit<PanelFlags, 'publicUrl'> {
  const fromEnv = <T>(name: string, parse: (v: string) => T, fallback: T): T => {
    const v = env[name];
    if (v === undefined || v === '') return fallback;
    try {
      return parse(v);
    } catch (err) {
      throw new ListingsError('invalid_config', `${name}=${v}: ${(err as Error).message}`);
    }
  };
  requireTwoFactorOf(env);
  return {
    host: env.PANEL_HOST || '127.0.0.1',
    port: fromEnv('PANEL_PORT', parsePort, PANEL_DEFAULT_PORT),
    panelUrl: fromEnv('PANEL_URL', parseUrl, ''),
    trustProxy,
    webhooksAllowPrivate,
    portOption: 'PANEL_PORT',
  };
}
