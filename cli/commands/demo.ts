// `listings demo` (what `npm start` runs): the whole product on one machine with real parts, and its URLs printed.
import { Command, Option } from 'commander';
import { writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { loadConfig } from '../../server/config.ts';
import { startApp } from '../../server/app.ts';
import { startWebhooks } from '../../server/webhooks/run.ts';
import { allowPrivateOf } from '../../server/webhooks/settings.ts';
import { switchOf } from '../../server/switch-setting.ts';
import { createLogger } from '../../server/logger.ts';
import { REPO_ROOT } from '../../server/repo.ts';
import { openDb } from '../../server/store/db.ts';
import { CLI_ACTOR, type PublishAudit } from '../../server/store/audit.ts';
import { openStore } from '../../server/store/store.ts';
import { listFacilities } from '../../server/store/facilities.ts';
import { reserveCss } from '../../shared/embed-reserve.ts';
import {
  assertWidgetBuilt,
  demoPaths,
  exportDemoSnapshots,
  importDemoData,
  issueDemoKeys,
  writeDemoKeys,
  writeDemoSite,
} from '../demo-site.ts';
import { demoSnapshots, watchDemoSnapshots } from '../demo-publish.ts';
import { DEMO_OPERATOR_EMAIL, demoPanelPort, ensureDemoOperator, startDemoPanel } from '../demo-panel.ts';
import { globalsOf } from '../context.ts';
import { parsePort } from './panel.ts';
import type { Io } from '../io.ts';
import { hostOption, portOption, publicUrlOption, unsetWhenEmpty, type Settings } from '../settings.ts';

const PAGES = [
  {
    href: '/demo/partner.html',
    label: 'Partner site',
    note: 'a moving company embeds the widget in live mode, with a demo key',
  },
  {
    href: '/demo/comparison.html',
    label: 'Comparison site',
    note: 'four facilities side by side, each with its own key, from the raw JSON API',
  },
  { href: '/demo/static.html', label: 'Static site', note: 'the widget on a signed snapshot, no key in the page' },
  { href: '/rent/wro-1/M-07', label: 'A rental page', note: 'where every rent link lands' },
];

export function demoCommand(io: Io): Command {
  return new Command('demo')
    .description(
      'run the demo (npm start builds first): load demo/data.json into data/demo.db, issue fresh demo keys, sign snapshots, serve every page',
    )
    .addOption(hostOption())
    .addOption(portOption())
    .addOption(publicUrlOption('URL the browser reaches the server at'))
    .addOption(
      new Option('--panel-port <port>', "the operator's panel's port")
        .env('PANEL_PORT')
        .argParser(unsetWhenEmpty<number | ''>(parsePort))
        .default('', "the API's port + 1, 8788"),
    )
    .option(
      '--verbose',
      'a log line per request (env LOG=1); by default the demo prints its URLs, then only warnings and errors',
    )
    .option('--quiet', 'no request log lines (the default; kept for scripts that pass it)')
    .addHelpText(
      'after',
      [
        '',
        'The demo has its own database, data/demo.db unless --db names another: it never reads LISTINGS_DB, which may',
        'name a real one. Everything the demo writes sits beside it (data/ is git-ignored): demo-site/ (the pages and',
        "signed snapshots), demo-keys.json (this run's keys, one per facility, mode 600) and demo-signing/.",
        "The operator's panel runs beside the API; its demo owner, demo@example.com, logs in with the password in",
        'demo-operator.json (mode 600), kept from one start to the next (a new one when that file is gone or the password',
        'was changed in the panel).',
        '',
        'Examples:',
        '  $ npm start',
        '  $ PORT=9000 npm start                   # the panel on 9001',
        '  $ PANEL_PORT=9100 npm start             # the panel alone on another port',
        '  $ npm start -- --verbose                # a log line per request',
        '  $ npm start -- --db /tmp/demo/demo.db   # a second, separate demo',
      ].join('\n'),
    )
    .action(
      async (
        flags: Pick<Settings, 'host' | 'port' | 'publicUrl'> & {
          panelPort: number | '';
          quiet?: boolean;
          verbose?: boolean;
        },
        cmd: Command,
      ) => {
        // The on/off variables first: a bad one stops the demo before it makes or changes anything.
        const verbose = !flags.quiet && (flags.verbose === true || switchOf(io.env, 'LOG'));
        const allowPrivate = allowPrivateOf(io.env, false);
        const g = globalsOf(cmd);
        const given = cmd.getOptionValueSourceWithGlobals('db') === 'cli';
        const dbFile = resolve(given ? g.db : join(REPO_ROOT, 'data', 'demo.db'));
        const { host, port, publicUrl } = flags;
        const config = loadConfig({ db: dbFile, keyPrefix: g.keyPrefix, host, port, publicUrl }, {});
        const paths = demoPaths(dbFile);
        // Paths as the one who ran it can open them: relative to the working folder when below it, else whole.
        const shown = (p: string) => (relative(process.cwd(), p).startsWith('..') ? p : relative(process.cwd(), p));
        assertWidgetBuilt();
        // Create or migrate the file, then listen before changing anything: a port in use is one line, and the
        // demo already running there keeps its keys and pages. The server notices the writes below on its next request.
        openDb(config.db).close();
        // Request lines only when asked (they would scroll the demo's own URLs away); errors always.
        const { logger } = createLogger({ quiet: !verbose });
        const snapshots = await demoSnapshots(paths.signing, join(paths.site, 'snapshots'));
        const store = await openStore(config.db, { mustExist: true });
        const panel = await startDemoPanel(store, {
          host: config.host,
          port: demoPanelPort(config.port, flags.panelPort),
          publicUrl: config.publicUrl,
          keyPrefix: config.keyPrefix,
          logger,
          snapshots,
        }).catch(async (err: unknown) => {
          await store.close();
          throw err;
        });
        const closePanel = async () => {
          await panel.close();
          await store.close();
        };
        const panelLink = {
          href: `${panel.url}/login`,
          label: 'Operator panel',
          note: `log in as ${DEMO_OPERATOR_EMAIL} with the password the demo printed (in ${shown(paths.operator)})`,
        };
        const app = await startApp({
          config,
          logger,
          mounts: [{ prefix: '/demo/', dir: paths.site }],
          links: [...PAGES, panelLink],
        }).catch(async (err: unknown) => {
          await closePanel();
          throw err;
        });
        let keys: Record<string, string>;
        let login: Awaited<ReturnType<typeof ensureDemoOperator>>['login'];
        try {
          keys = await prepare(config.db, config.publicUrl, config.keyPrefix, paths, { actor: CLI_ACTOR, to: store });
          ({ login } = await ensureDemoOperator(store, paths.operator, panel.url));
        } catch (err) {
          await app.close();
          await closePanel();
          throw err;
        }
        // After the first export: from here on every commit (an import, a key change) is published as --watch does.
        const watch = watchDemoSnapshots(store, snapshots, config.publicUrl, (line) => io.err(line));
        const base = config.publicUrl;
        io.err(
          [
            `storage-listings demo is running (database ${shown(config.db)})`,
            ...[
              { href: '/', label: 'Start here' },
              ...PAGES,
              { href: '/docs', label: 'API reference' },
              { href: '/openapi.json', label: 'OpenAPI document' },
            ].map((p) => `  ${p.label.padEnd(18)} ${base}${p.href}`),
            `  ${panelLink.label.padEnd(18)} ${panelLink.href}`,
            `Panel login:  ${login.email}  ${login.password}  (kept in ${shown(paths.operator)})`,
            `Try the API:  curl -H "X-API-Key: ${keys['wro-1'] ?? Object.values(keys)[0]}" ${base}/external/listings`,
            `Keys of this run: ${shown(paths.keys)} (one per facility, for curl and your own pages)`,
            'Press Ctrl-C to stop.',
          ].join('\n'),
        );
        // Webhooks of the demo's keys go out as from `listings serve`.
        const webhooks = await startWebhooks({
          db: config.db,
          publicUrl: config.publicUrl,
          allowPrivate,
          log: (l) => logger.warn(l),
        });
        await app.stopped;
        await webhooks.close();
        await watch.stop();
        await closePanel();
        io.err('stopped');
      },
    );
}

/** Demo data in, fresh keys out, pages filled in and snapshots signed; returns the keys by facility. */
async function prepare(
  dbFile: string,
  publicUrl: string,
  keyPrefix: string,
  paths: ReturnType<typeof demoPaths>,
  audit: PublishAudit,
): Promise<Record<string, string>> {
  const db = openDb(dbFile);
  try {
    importDemoData(db, publicUrl);
    const facilities = listFacilities(db);
    const keys = issueDemoKeys(
      db,
      keyPrefix,
      facilities.map((f) => f.id),
    );
    writeDemoKeys(paths.keys, publicUrl, keys);
    const values: Record<string, string> = { PUBLIC_URL: publicUrl };
    for (const { id, active_listings } of facilities) {
      const name = id.replace(/-/g, '_').toUpperCase();
      values[`KEY_${name}`] = keys[id]!;
      // What the panel's snippet writes: the cards to reserve room for.
      values[`CARDS_${name}`] = String(active_listings);
    }
    writeDemoSite(paths.site, values);
    // The partner page's snippet rule, in a stylesheet of its own: the demo's pages allow no inline style.
    const partner = facilities.find((f) => f.id === 'wro-1');
    writeFileSync(join(paths.site, 'partner-reserve.css'), reserveCss(partner?.active_listings ?? 3, false));
    await exportDemoSnapshots(db, paths.signing, join(paths.site, 'snapshots'), publicUrl, audit);
    return keys;
  } finally {
    db.close();
  }
}
