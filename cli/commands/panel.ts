// `listings panel`: the operator's panel on its own port, 127.0.0.1 by default, apart from the public API.
import { Command, InvalidArgumentError, Option } from 'commander';
import { parseTrustedProxies } from '../../server/http/transport/client-address.ts';
import { startPanel } from '../../server/panel/server.ts';
import { openStore } from '../../server/store/store.ts';
import { globalsOf } from '../context.ts';
import type { Io } from '../io.ts';
import { trustProxyOption } from '../settings.ts';

export const PANEL_DEFAULT_PORT = 8788;

interface PanelFlags {
  host: string;
  port: number;
  panelUrl: string;
  publicUrl: string;
  trustProxy: string;
}

function parsePort(value: string): number {
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
    .description("serve the operator's panel: facilities, keys, import, audit log (log in with an operators account)")
    .addOption(new Option('--host <host>', 'address to listen on').env('PANEL_HOST').default('127.0.0.1'))
    .addOption(
      new Option('--port <port>', 'port to listen on')
        .env('PANEL_PORT')
        .argParser(parsePort)
        .default(PANEL_DEFAULT_PORT),
    )
    .addOption(
      new Option('--panel-url <url>', 'URL operators reach the panel at (https: cookies are Secure)')
        .env('PANEL_URL')
        .argParser(parseUrl)
        .default('', 'http://HOST:PORT'),
    )
    .addOption(
      new Option('--public-url <url>', "the API's URL, for the embed snippet")
        .env('PUBLIC_URL')
        .argParser(parseUrl)
        .default('http://127.0.0.1:8787'),
    )
    .addOption(trustProxyOption())
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings panel\n  $ PANEL_URL=https://panel.example.com listings panel --port 8788',
    )
    .action(async (flags: PanelFlags, cmd: Command) => {
      // Checked by the option's parser already, as serve checks it.
      const trustedProxies = parseTrustedProxies(flags.trustProxy);
      const { db, keyPrefix } = globalsOf(cmd);
      const store = await openStore(db, { mustExist: true });
      const panel = await startPanel({
        store,
        host: flags.host,
        port: flags.port,
        origin: flags.panelUrl ? { origin: flags.panelUrl, secure: flags.panelUrl.startsWith('https:') } : undefined,
        publicUrl: flags.publicUrl,
        keyPrefix,
        trustedProxies,
      });
      io.err(
        `storage-listings panel for ${store.location} at ${panel.url} (log in at ${flags.panelUrl || panel.url}/login)`,
      );
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGTERM', stop);
        process.once('SIGINT', stop);
      });
      await panel.close();
      await store.close();
    });
}
