// `listings operators add|list|remove|passwd|role|reset-2fa`: who may log in to the panel, and with which role. The
// command line acts as an owner, audited as `cli:<OS user>`.
import { Command, InvalidArgumentError } from 'commander';
import { ListingsError } from '../../server/errors.ts';
import { normalEmail } from '../../server/domain/emails.ts';
import { checkPassword, hashPassword, MAX_PASSWORD_LENGTH } from '../../server/domain/passwords.ts';
import { parseRole, ROLES, type Role } from '../../server/domain/roles.ts';
import { withStore } from '../context.ts';
import { json, table, type Io } from '../io.ts';

const OPERATOR_COLUMNS = ['email', 'role', 'two_factor_since', 'id', 'created_at', 'password_changed_at'];

function roleArgument(value: string): Role {
  try {
    return parseRole(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/** A new account's email, refused before its password is asked for (an invisible character, no address). */
function newEmailArgument(value: string): string {
  try {
    normalEmail(value);
    return value;
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

/**
 * The new password: typed twice at a terminal without echo, or the first line of standard input. Never an argument:
 * arguments show in `ps` and in shell history.
 */
async function newPassword(io: Io): Promise<string> {
  let password: string;
  if (io.readSecret) {
    password = await io.readSecret('New password: ');
    if ((await io.readSecret('Repeat it: ')) !== password)
      throw new ListingsError('password_mismatch', 'the two passwords differ; nothing changed');
  } else {
    const raw = await io.readStdin(MAX_PASSWORD_LENGTH * 4 + 2);
    password = (typeof raw === 'string' ? raw : Buffer.from(raw).toString('utf8')).split(/\r?\n/)[0] ?? '';
  }
  checkPassword(password);
  return password;
}

export function operatorsCommand(io: Io): Command {
  const operators = new Command('operators')
    .description("manage the accounts that may log in to the operator's panel")
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings operators add ops@example.com\n  $ printf \'%s\\n\' "$PANEL_PASSWORD" | listings operators add ops@example.com\n  $ listings operators list',
    );
  operators
    .command('add')
    .addHelpText('after', '\nExample:\n  $ printf \'%s\\n\' "$PANEL_PASSWORD" | listings operators add ops@example.com')
    .description('add an account; the password is prompted for, or read from the first line of standard input')
    .argument('<email>', "the operator's email address, used to log in", newEmailArgument)
    .option(
      '--role <role>',
      `${ROLES.join(', ')}: viewer reads, manager also changes keys, imports and snapshots, owner also manages accounts (the first account is an owner; default viewer)`,
      roleArgument,
    )
    .option('--json', 'print as JSON')
    .action(async (email: string, opts: { role?: Role; json?: boolean }, cmd: Command) => {
      // The database first: a missing one is refused before anyone types a password for it.
      const info = await withStore(cmd, async (store) =>
        store.addOperator(email, await hashPassword(await newPassword(io)), opts.role),
      );
      io.out(opts.json ? json(info) : `added operator ${info.email} (${info.id}) as ${info.role}`);
    });
  operators
    .command('list')
    .addHelpText('after', '\nExample:\n  $ listings operators list')
    .description('list the accounts (never their passwords)')
    .option('--json', 'print as JSON')
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const rows = await withStore(cmd, (store) => store.listOperators());
      io.out(opts.json ? json(rows) : table(rows, OPERATOR_COLUMNS));
    });
  operators
    .command('remove')
    .addHelpText('after', '\nExample:\n  $ listings operators remove ops@example.com')
    .description('remove an account; its sessions end at once')
    .argument('<email>', 'the account')
    .option('--json', 'print as JSON')
    .action(async (email: string, opts: { json?: boolean }, cmd: Command) => {
      const info = await withStore(cmd, (store) => store.removeOperator(email));
      io.out(opts.json ? json(info) : `removed operator ${info.email}`);
    });
  operators
    .command('passwd')
    .addHelpText('after', '\nExample:\n  $ listings operators passwd ops@example.com')
    .description("set an account's password (prompted, or from standard input); its sessions end at once")
    .argument('<email>', 'the account')
    .option('--json', 'print as JSON')
    .action(async (email: string, opts: { json?: boolean }, cmd: Command) => {
      const hash = await hashPassword(await newPassword(io));
      const info = await withStore(cmd, (store) => store.setOperatorPassword(email, hash));
      io.out(opts.json ? json(info) : `changed the password of ${info.email}`);
    });
  operators
    .command('role')
    .addHelpText('after', '\nExample:\n  $ listings operators role ann@example.com manager')
    .description("set an account's role; its sessions end at once (the last owner stays an owner)")
    .argument('<email>', 'the account')
    .argument('<role>', ROLES.join(', '), roleArgument)
    .option('--json', 'print as JSON')
    .action(async (email: string, role: Role, opts: { json?: boolean }, cmd: Command) => {
      const info = await withStore(cmd, (store) => store.setOperatorRole(email, role));
      io.out(opts.json ? json(info) : `${info.email} is now ${info.role}`);
    });
  operators
    .command('reset-2fa')
    .addHelpText('after', '\nExample:\n  $ listings operators reset-2fa ann@example.com')
    .description(
      "turn an account's two-factor login off (a lost phone): its key and recovery codes are forgotten, its sessions end; it enrols again at its next login",
    )
    .argument('<email>', 'the account')
    .option('--json', 'print as JSON')
    .action(async (email: string, opts: { json?: boolean }, cmd: Command) => {
      const info = await withStore(cmd, (store) => store.resetTwoFactor(email));
      io.out(opts.json ? json(info) : `two-factor login of ${info.email} is off`);
    });
  return operators;
}
