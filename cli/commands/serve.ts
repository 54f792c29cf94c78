// `listings serve`: the External Listings API, the rental pages, the OpenAPI document and the widget bundle.
import { Command, InvalidArgumentError } from 'commander';
import { boundTo, loadConfig, requireSharedPublicUrl } from '../../server/config.ts';
import { startApp } from '../../server/app.ts';
import { createLogger } from '../../server/logger.ts';
import { failWorker, isClusterWorker, superviseWorkers, tellPrimaryReady, workerCount } from '../../server/cluster.ts';
import { ListingsError } from '../../server/errors.ts';
import { openStore } from '../../server/store/store.ts';
import { describeLocation } from '../../server/store/pg/location.ts';
import { globalsOf } from '../context.ts';
import type { Io } from '../io.ts';
import { panelFlagsFromEnv, runPanel } from './panel.ts';
import { hostOption, portOption, publicUrlOption, trustProxyOption, type Settings } from '../settings.ts';
import { startWebhooks } from '../../server/webhooks/run.ts';
import { onStopSignals } from '../../server/stop-signals.ts';
import { allowPrivateOf } from '../../server/webhooks/settings.ts';

export interface ServeFlags extends Pick<Settings, 'host' | 'port' | 'publicUrl' | 'trustProxy'> {
  quiet?: boolean;
  workers?: number;
  panel?: boolean;
  webhooksAllowPrivate?: boolean;
}

function parseWorkers(value: string): number {
  try {
    return workerCount(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

export function serveCommand(io: Io): Command {
  return new Command('serve')
    .description('serve the API (GET /external/listings[/{id}]), rental pages, /openapi.json, /docs and the widget')
    .addOption(hostOption())
    .addOption(portOption())
    .addOption(
      publicUrlOption(
        'URL partners reach this server at, the same on every node; required with a postgres:// database',
      ),
    )
    .option('--workers <n>', 'processes sharing the port (node:cluster); "auto" = one per core', parseWorkers)
    .addOption(trustProxyOption())
    .option('--quiet', 'no request log lines')
    .option('--webhooks-allow-private', 'let webhooks reach loopback and private addresses (WEBHOOKS_ALLOW_PRIVATE=1)')
    .option('--panel', "also serve the operator's panel, on its own port (PANEL_HOST, PANEL_PORT: 127.0.0.1:8788)")
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings serve --port 8787\n  $ PUBLIC_URL=https://listings.example.com HOST=0.0.0.0 listings serve --workers auto',
    )
    .action(async (flags: ServeFlags, cmd: Command) => {
      const { db, keyPrefix } = globalsOf(cmd);
      const { host, port, publicUrl, trustProxy } = flags;
      requireSharedPublicUrl(db, publicUrl);
      // Each setting comes from its flag, its variable or its default already (commander's .env and .default).
      const config = loadConfig({ db, keyPrefix, host, port, publicUrl, trustProxy }, {});
      const workers = flags.workers ?? 1;
      // The panel's and the deliverer's settings, checked before anything listens: a bad one stops start-up, not a
      // panel or a deliverer beside a running API.
      const allowPrivate = allowPrivateOf(io.env, flags.webhooksAllowPrivate);
      const panelFlags =
        flags.panel && !isClusterWorker() ? panelFlagsFromEnv(io.env, trustProxy, allowPrivate) : undefined;
      // The process's one logger: errors at every verbosity, request lines unless --quiet.
      const logs = createLogger({ quiet: flags.quiet ?? false });
      const { logger } = logs;
      // Stopped: the log's last lines are written, or given up on after a while, when stdout is not read (a process
      // with a write stuck on a full pipe would never end by itself).
      const endLogs = async () => {
        if (!(await logs.end(LOG_DRAIN_MS))) process.exit(process.exitCode ?? 0);
      };
      const banner = (url: string, publicUrl: string) =>
        `storage-listings serving ${describeLocation(config.db)} at ${url} (public URL ${publicUrl}${workers > 1 ? `, ${workers} workers` : ''}); API: ${publicUrl}/external/listings, docs: ${publicUrl}/docs`;
      // One panel per server, in the primary: never behind the API's port, origin or cookies.
      const startPanel = (publicUrl: string) =>
        panelFlags ? runPanel({ ...panelFlags, publicUrl }, io, config.db, keyPrefix, logger) : undefined;
      // One deliverer per server, in the primary: workers answer requests only.
      const startDeliverer = (publicUrl: string) =>
        isClusterWorker()
          ? undefined
          : startWebhooks({
              db: config.db,
              publicUrl,
              allowPrivate,
              log: (l) => logger.warn(l),
            });
      if (workers > 1 && !isClusterWorker()) {
        // Migrate once here, so that workers never race to do it; it also fails early on a missing or bad file.
        await (await openStore(config.db, { mustExist: true })).close();
        const supervised = superviseWorkers(workers, (l) => io.err(l));
        let panel: Awaited<ReturnType<typeof startPanel>>;
        let webhooks: Awaited<ReturnType<typeof startDeliverer>>;
        try {
          // The public URL names the port the workers got (asked for 0, one the system chose).
          const port = await supervised.ready;
          const publicUrl = boundTo(config, port).publicUrl;
          io.err(banner(`http://${config.host}:${port}`, publicUrl));
          panel = await startPanel(publicUrl);
          webhooks = await startDeliverer(publicUrl);
          await supervised.done;
          holdSignals();
        } catch (err) {
          supervised.stop();
          await supervised.done.catch(() => undefined);
          throw err;
        } finally {
          await webhooks?.close();
          await panel?.close();
        }
        await endLogs();
        return;
      }
      const app = await startApp({ config, logger }).catch((err: unknown) => {
        if (!isClusterWorker()) throw err;
        return failWorker(
          err instanceof ListingsError ? err.message : `unexpected failure: ${(err as Error).message ?? String(err)}`,
        );
      });
      if (isClusterWorker()) tellPrimaryReady(app.port);
      else io.err(banner(app.url, app.publicUrl));
      const panel = await startPanel(app.publicUrl)?.catch(async (err: unknown) => {
        await app.close();
        throw err;
      });
      const webhooks = await startDeliverer(app.publicUrl);
      await app.stopped;
      holdSignals();
      await webhooks?.close();
      await panel?.close();
      await endLogs();
    });
}

/** How long a stopped server waits for stdout's reader to take the log's last lines. */
const LOG_DRAIN_MS = 5000;

/** Once the servers have stopped, a further stop signal must not cut what is left of the shutdown. */
function holdSignals(): void {
  onStopSignals(() => undefined);
}
