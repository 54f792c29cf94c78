// `listings serve`: the External Listings API, the rental pages, the OpenAPI document and the widget bundle.
import { Command } from 'commander';
import { loadConfig } from '../../server/config.ts';
import { startApp } from '../../server/app.ts';
import { globalsOf } from '../context.ts';
import type { Io } from '../io.ts';

export interface ServeFlags {
  host?: string;
  port?: string;
  publicUrl?: string;
  quiet?: boolean;
}

export function serveCommand(io: Io): Command {
  return new Command('serve')
    .description('serve the API (GET /external/listings[/{id}]), rental pages, /openapi.json, /docs and the widget')
    .option('--host <host>', 'address to listen on (env HOST, default 127.0.0.1)')
    .option('--port <port>', 'port to listen on (env PORT, default 8787)')
    .option('--public-url <url>', 'URL partners reach this server at (env PUBLIC_URL, default http://HOST:PORT)')
    .option('--quiet', 'no request log lines')
    .addHelpText('after', '\nExamples:\n  $ listings serve --port 8787\n  $ PUBLIC_URL=https://listings.example.com HOST=0.0.0.0 listings serve')
    .action(async (flags: ServeFlags, cmd: Command) => {
      const g = globalsOf(cmd);
      const config = loadConfig({ db: g.db, keyPrefix: g.keyPrefix, host: flags.host, port: flags.port, publicUrl: flags.publicUrl }, io.env);
      const app = await startApp({ config, quiet: flags.quiet ?? false });
      io.err(`storage-listings serving ${config.db} at ${app.url} (public URL ${config.publicUrl}); API: ${config.publicUrl}/external/listings, docs: ${config.publicUrl}/docs`);
      await app.stopped;
    });
}
