// The `listings` command: createProgram() returns a fresh Command so tests can run it in-process.
import { Command, CommanderError } from 'commander';
import packageJson from '../package.json' with { type: 'json' };
import { listedDetails, ListingsError } from '../server/errors.ts';
import { dbCommand, facilitiesCommand, importCommand } from './commands/data.ts';
import { keysCommand } from './commands/keys.ts';
import { auditCommand } from './commands/audit.ts';
import { referralsCommand } from './commands/referrals.ts';
import { operatorsCommand } from './commands/operators.ts';
import { panelCommand } from './commands/panel.ts';
import { serveCommand } from './commands/serve.ts';
import { snapshotCommand } from './commands/snapshot.ts';
import { demoCommand } from './commands/demo.ts';
import { webhooksCommand } from './commands/webhooks.ts';
import type { Io } from './io.ts';
import { dbOption, keyPrefixOption, readEnvFrom } from './settings.ts';

export const EXIT_OK = 0;
/** A failure: bad data, a missing or unreadable file, the database, the network, a snapshot that does not verify. */
export const EXIT_BAD_INPUT = 1;
/** A usage error: an unknown command or option, a missing argument, an invalid value (from a flag or the env). */
export const EXIT_USAGE = 2;
/** Ctrl-C at a prompt: 128 + SIGINT, what a shell reports for a command the signal ended. */
export const EXIT_INTERRUPTED = 130;
/** Usage errors found past parsing: a setting loadConfig refuses, options that do not go together (--endpoint, --to;
 * --from after --to), a webhook --url the address rules refuse. */
const USAGE_ERROR_CODES = new Set(['invalid_config', 'invalid_target', 'invalid_url', 'invalid_range']);
export { MAX_LISTED_DETAILS } from '../server/errors.ts';

const HELP_HINT = '(run with --help for usage)';

export function createProgram(io: Io): Command {
  const program = new Command('listings')
    .description(
      'storage-listings: import operator data, issue API keys, serve the External Listings API, export signed snapshots',
    )
    .version(packageJson.version)
    .addOption(dbOption())
    .addOption(keyPrefixOption())
    .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
    .showHelpAfterError(HELP_HINT)
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings import demo/data.json\n  $ listings keys create --facility wro-1 --label "broker site"\n  $ listings serve --port 8787',
    )
    .exitOverride();
  if (io.env !== process.env) program.hook('preAction', readEnvFrom(io.env));
  for (const sub of [
    dbCommand(io),
    importCommand(io),
    facilitiesCommand(io),
    keysCommand(io),
    referralsCommand(io),
    serveCommand(io),
    demoCommand(io),
    snapshotCommand(io),
    operatorsCommand(io),
    auditCommand(io),
    panelCommand(io),
    webhooksCommand(io),
  ]) {
    program.addCommand(sub);
  }
  // exitOverride, output and suggestions are not inherited by commands added with addCommand: apply them everywhere.
  // A command's usage error stays one line (what is wrong, and the likely fix); the help hint is the top level's.
  const apply = (cmd: Command) => {
    cmd
      .exitOverride()
      .configureOutput({ writeOut: (s) => io.out(s), writeErr: (s) => io.err(s) })
      .configureHelp({ showGlobalOptions: true })
      .showSuggestionAfterError(true);
    checkRequiredOptionsAfterUnknownOnes(cmd);
    cmd.commands.forEach(apply);
  };
  program.commands.forEach(apply);
  return program;
}

/**
 * Commander checks required options before unknown ones, so a misspelt `keys create --facilty wro-1` would say
 * "required option '--facility <id>' not specified". Checked just before the action instead, the misspelling is
 * reported first, as an unknown option with its "(Did you mean --facility?)".
 */
function checkRequiredOptionsAfterUnknownOnes(cmd: Command): void {
  const required = cmd.options.filter((option) => option.mandatory);
  if (required.length === 0) return;
  required.forEach((option) => option.makeOptionMandatory(false));
  cmd.hook('preAction', () => {
    const missing = required.find((option) => cmd.getOptionValue(option.attributeName()) === undefined);
    if (missing)
      cmd.error(`error: required option '${missing.flags}' not specified`, {
        code: 'commander.missingMandatoryOptionValue',
      });
  });
}

/** An error's details, one per line, up to MAX_LISTED_DETAILS, then how many more. */
function detailLines(details: readonly string[]): string[] {
  const { listed, more } = listedDetails(details);
  return [...listed, ...(more === undefined ? [] : [more])].map((line) => `  ${line}`);
}

/**
 * Runs the CLI and returns the exit code: 0 success, 1 a failure, 2 a usage error, 130 Ctrl-C at a prompt; the reason
 * is on stderr, in a line.
 */
export async function runCli(argv: string[], io: Io): Promise<number> {
  const program = createProgram(io);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (err) {
    // Commander has printed the reason. Only --help and --version exit 0: help shown for a missing command exits 1.
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    if (err instanceof ListingsError && err.code === 'interrupted') {
      io.err('interrupted');
      return EXIT_INTERRUPTED;
    }
    if (err instanceof ListingsError) {
      io.err([`error: ${err.message}`, ...detailLines(err.details)].join('\n'));
      return USAGE_ERROR_CODES.has(err.code) ? EXIT_USAGE : EXIT_BAD_INPUT;
    }
    io.err(`error: unexpected failure: ${(err as Error).message ?? String(err)}`);
    return EXIT_BAD_INPUT;
  }
}
