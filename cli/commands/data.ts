// `listings db migrate`, `listings import`, `listings facilities list`: getting operator data in and seeing it.
import { Command } from 'commander';
import { readFile, stat } from 'node:fs/promises';
import { ListingsError } from '../../server/errors.ts';
import { importTooLarge, MAX_IMPORT_BYTES, parseImport } from '../../server/domain/import.ts';
import { openStore } from '../../server/store/store.ts';
import { copySqliteToPg } from '../../server/store/pg/copy.ts';
import { isPostgresUrl } from '../../server/store/pg/location.ts';
import { globalsOf, withStore } from '../context.ts';
import { json, table, type Io } from '../io.ts';

/** A command group with one subcommand, `--json` on it, and the same example under both helps. */
function groupWith(
  group: string,
  groupDescription: string,
  sub: string,
  subDescription: string,
  example: string,
): Command {
  const parent = new Command(group).description(groupDescription).addHelpText('after', `\nExample:\n  $ ${example}`);
  parent
    .command(sub)
    .description(subDescription)
    .option('--json', 'print as JSON')
    .addHelpText('after', `\nExample:\n  $ ${example}`);
  return parent;
}

export function dbCommand(io: Io): Command {
  const db = groupWith(
    'db',
    'manage the database (a SQLite file or PostgreSQL)',
    'migrate',
    'create the database or bring its schema up to date',
    'listings db migrate --db ./data/listings.db',
  );
  db.commands[0]!.action(async (opts: { json?: boolean }, cmd: Command) => {
    const store = await openStore(globalsOf(cmd).db);
    const version = await store.schemaVersion().finally(() => store.close());
    io.out(
      opts.json
        ? json({ db: store.location, schema_version: version })
        : `${store.location}: schema version ${version}`,
    );
  });
  db.command('copy')
    .description(
      'copy a SQLite file into an empty PostgreSQL database, in one transaction: data, keys, snapshot versions, operators, login limits, the audit log, referral clicks, webhook endpoints and the webhook clock (not sessions: operators log in again)',
    )
    .requiredOption('--from <file>', 'the SQLite file')
    // Not an Option.env: the URL is required, with no default to show, and LISTINGS_PG keeps its password out of ps.
    .option('--to <url>', 'the postgres:// URL of an empty database (left out: LISTINGS_PG)')
    .option('--json', 'print as JSON')
    .addHelpText(
      'after',
      '\nExample:\n  $ LISTINGS_PG=postgres://listings:PASSWORD@db.internal/listings listings db copy --from ./data/listings.db',
    )
    .action(async (opts: { from: string; to?: string; json?: boolean }) => {
      const to = opts.to ?? (io.env.LISTINGS_PG || undefined);
      if (to === undefined)
        throw new ListingsError('invalid_config', '--to (or LISTINGS_PG): the postgres:// URL of an empty database');
      if (!isPostgresUrl(to)) throw new ListingsError('invalid_config', '--to: must be a postgres:// URL');
      const counts = await copySqliteToPg(opts.from, to);
      io.out(
        opts.json
          ? json(counts)
          : `copied ${counts.facilities} facilities, ${counts.listings} listings, ${counts.api_keys} keys, ${counts.operators} operators, ${counts.audit_log} audit rows`,
      );
    });
  return db;
}

export function importCommand(io: Io): Command {
  return new Command('import')
    .description('import facilities and listings from a JSON file ("-" reads standard input); all or nothing')
    .argument('<file>', 'import file, or - for standard input')
    .option('--json', 'print the result as JSON')
    .addHelpText('after', '\nExamples:\n  $ listings import demo/data.json\n  $ cat export.json | listings import -')
    .action(async (file: string, opts: { json?: boolean }, cmd: Command) => {
      const source = file === '-' ? 'stdin' : file;
      // Validate completely before the database is even opened.
      const parsed = parseImport(await importBytes(file, source, io), source);
      const summary = await withStore(cmd, (store) => store.applyImport(parsed), { create: true });
      io.out(
        opts.json
          ? json(summary)
          : `imported ${summary.facilities} facilities, ${summary.listings} active listings; ${summary.deactivated} listings deactivated`,
      );
    });
}

/** The import file's bytes, decoded by parseImport; a file over the limit is refused before it is read. */
async function importBytes(file: string, source: string, io: Io): Promise<Uint8Array | string> {
  try {
    if (file === '-') return await io.readStdin(MAX_IMPORT_BYTES);
    if ((await stat(file)).size > MAX_IMPORT_BYTES) throw importTooLarge(source);
    return await readFile(file);
  } catch (err) {
    if (err instanceof ListingsError) throw err;
    throw new ListingsError(
      'unreadable_file',
      `${source}: cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
}

export function facilitiesCommand(io: Io): Command {
  const cmd = groupWith(
    'facilities',
    'list the imported facilities',
    'list',
    'list facilities with their listing counts',
    'listings facilities list --json',
  );
  cmd.commands[0]!.action(async (opts: { json?: boolean }, sub: Command) => {
    const rows = await withStore(sub, (store) => store.listFacilities());
    io.out(
      opts.json ? json(rows) : table(rows, ['id', 'name', 'currency', 'active_listings', 'listings', 'imported_at']),
    );
  });
  return cmd;
}
