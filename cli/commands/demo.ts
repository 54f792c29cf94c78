// `listings demo` (what `npm start` runs): the whole product on one machine with real parts, and its URLs printed.
import { Command } from 'commander';
import { join } from 'node:path';
import { loadConfig } from '../../server/config.ts';
import { startApp } from '../../server/app.ts';
import { openDb } from '../../server/store/db.ts';
import { listFacilities } from '../../server/store/facilities.ts';
import { buildWidgetIfStale, importDemoData, issueDemoKeys, REPO, writeDemoSite } from '../../demo/prepare.ts';
import { globalsOf } from '../context.ts';
import type { Io } from '../io.ts';

export function demoCommand(io: Io): Command {
  return new Command('demo')
    .description('run the demo: build the widget if needed, load demo/data.json into data/demo.db, issue fresh demo keys, serve every page')
    .option('--host <host>', 'address to listen on (env HOST, default 127.0.0.1)')
    .option('--port <port>', 'port (env PORT, default 8787)')
    .option('--public-url <url>', 'URL the browser reaches the server at (env PUBLIC_URL)')
    .option('--quiet', 'no request log lines')
    .addHelpText('after', '\nExamples:\n  $ npm start\n  $ PORT=9000 npm start')
    .action(async (flags: { host?: string; port?: string; publicUrl?: string; quiet?: boolean }, cmd: Command) => {
      const g = globalsOf(cmd);
      const dbFile = g.db ?? join(REPO, 'data', 'demo.db');
      const config = loadConfig({ db: dbFile, keyPrefix: g.keyPrefix, host: flags.host, port: flags.port, publicUrl: flags.publicUrl }, io.env);
      const say = (line: string) => io.err(line);
      if (buildWidgetIfStale(say)) say('widget built: dist/widget/storage-listings.js');
      const db = openDb(config.db);
      let keys: Record<string, string>;
      try {
        importDemoData(db, config.publicUrl);
        const facilities = listFacilities(db).map((f) => f.id);
        keys = issueDemoKeys(db, config.keyPrefix, facilities);
      } finally {
        db.close();
      }
      const site = join(REPO, 'data', 'demo-site');
      const values: Record<string, string> = { PUBLIC_URL: config.publicUrl };
      for (const [id, key] of Object.entries(keys)) values[`KEY_${id.replace(/-/g, '_').toUpperCase()}`] = key;
      writeDemoSite(site, values);
      const pages = [
        { href: '/demo/partner.html', label: 'Partner site', note: 'the widget in live mode, with a demo key' },
        { href: '/demo/comparison.html', label: 'Comparison site', note: 'several facilities from the raw JSON API' },
        { href: '/demo/static.html', label: 'Static site', note: 'the widget on a signed snapshot, no key' },
        { href: '/rent/wro-1/M-07', label: 'A rental page', note: 'where every rent link lands' },
      ];
      const app = await startApp({ config, quiet: flags.quiet ?? false, mounts: [{ prefix: '/demo/', dir: site }], links: pages });
      const base = config.publicUrl;
      io.err(
        [
          `storage-listings demo is running (database ${config.db})`,
          ...[{ href: '/', label: 'Start here' }, ...pages, { href: '/docs', label: 'API reference' }, { href: '/openapi.json', label: 'OpenAPI document' }].map(
            (p) => `  ${p.label.padEnd(18)} ${base}${p.href}`,
          ),
          `Try the API:  curl -H "X-API-Key: ${keys['wro-1'] ?? Object.values(keys)[0]}" ${base}/external/listings`,
          'Press Ctrl-C to stop.',
        ].join('\n'),
      );
      await app.stopped;
      io.err('stopped');
    });
}
