// `listings serve`: the External Listings API, the rental pages, the OpenAPI document and the widget bundle.
import { Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../../server/config.ts';
import { startApp } from '../../server/app.ts';
import { failWorker, isClusterWorker, superviseWorkers, tellPrimaryReady, workerCount } from '../../server/cluster.ts';
import { ListingsError } from '../../server/errors.ts';
import { openDb } from '../../server/store/db.ts';
import { globalsOf } from '../context.ts';
import type { Io } from '../io.ts';

export interface ServeFlags {
  host?: string;
  port?: string;
  publicUrl?: string;
  quiet?: boolean;
  workers?: number;
  trustProxy?: string;
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
    .option('--host <host>', 'address to listen on (env HOST, default 127.0.0.1)')
    .option('--port <port>', 'port to listen on (env PORT, default 8787)')
    .option('--public-url <url>', 'URL partners reach this server at (env PUBLIC_URL, default http://HOST:PORT)')
    .option('--workers <n>', 'processes sharing the port (node:cluster); "auto" = one per core', parseWorkers)
    .option(
      '--trust-proxy <addresses>',
      'comma-separated IP addresses of the proxies in front; their X-Forwarded-For names the client (env TRUST_PROXY)',
    )
    .option('--quiet', 'no request log lines')
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings serve --port 8787\n  $ PUBLIC_URL=https://listings.example.com HOST=0.0.0.0 listings serve --workers auto',
    )
    .action(async (flags: ServeFlags, cmd: Command) => {
      const g = globalsOf(cmd);
      const config = loadConfig(
        {
          db: g.db,
          keyPrefix: g.keyPrefix,
          host: flags.host,
          port: flags.port,
          publicUrl: flags.publicUrl,
          trustProxy: flags.trustProxy,
        },
        io.env,
      );
      const workers = flags.workers ?? 1;
      const banner = (url: string) =>
        `storage-listings serving ${config.db} at ${url} (public URL ${config.publicUrl}${workers > 1 ? `, ${workers} workers` : ''}); API: ${config.publicUrl}/external/listings, docs: ${config.publicUrl}/docs`;
      if (workers > 1 && !isClusterWorker()) {
        // Migrate once here, so that workers never race to do it; it also fails early on a missing or bad file.
        openDb(config.db, { mustExist: true }).close();
        await superviseWorkers(
          workers,
          () => io.err(banner(`http://${config.host}:${config.port}`)),
          (l) => io.err(l),
        );
        return;
      }
      const app = await startApp({ config, quiet: flags.quiet ?? false }).catch((err: unknown) => {
        if (!isClusterWorker()) throw err;
        return failWorker(
          err instanceof ListingsError ? err.message : `unexpected failure: ${(err as Error).message ?? String(err)}`,
        );
      });
      if (isClusterWorker()) tellPrimaryReady();
      else io.err(banner(app.url));
      await app.stopped;
    });
}
