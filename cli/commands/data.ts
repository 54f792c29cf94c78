// `listings db migrate`, `listings import`, `listings facilities list`: getting operator data in and seeing it.
import { Command } from 'commander';
import { readFile, stat } from 'node:fs/promises';
import { ListingsError } from '../../server/errors.ts';
import { importTooLarge, MAX_IMPORT_BYTES, parseImport } from '../../server/domain/import.ts';
import { openDb, schemaVersionOf } from '../../server/store/db.ts';
import { applyImport, listFacilities } from '../../server/store/facilities.ts';
import { globalsOf, withDb } from '../context.ts';
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
    'manage the database file',
    'migrate',
    'create the database file or bring its schema up to date',
    'listings db migrate --db ./data/listings.db',
  );
  db.commands[0]!.action((opts: { json?: boolean }, cmd: Command) => {
    const path = globalsOf(cmd).db;
    const handle = openDb(path);
    const version = schemaVersionOf(handle);
    handle.close();
    io.out(opts.json ? json({ db: path, schema_version: version }) : `${path}: schema version ${version}`);
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
      const summary = await withDb(cmd, (db) => applyImport(db, parsed), { create: true });
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
    const rows = await withDb(sub, (db) => listFacilities(db));
    io.out(
      opts.json ? json(rows) : table(rows, ['id', 'name', 'currency', 'active_listings', 'listings', 'imported_at']),
    );
  });
  return cmd;
}
