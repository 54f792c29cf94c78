// `listings operators add|list|remove|passwd` and `listings audit`: who may log in to the panel, and what they did.
import { Command, InvalidArgumentError } from 'commander';
import { ListingsError } from '../../server/errors.ts';
import { checkPassword, hashPassword, MAX_PASSWORD_LENGTH } from '../../server/domain/passwords.ts';
import { AUDIT_DEFAULT_LIMIT, type AuditRow } from '../../server/store/audit.ts';
import { withStore } from '../context.ts';
import { json, table, type Io } from '../io.ts';

const OPERATOR_COLUMNS = ['email', 'id', 'created_at', 'password_changed_at'];
const AUDIT_COLUMNS = ['at', 'actor', 'action', 'facility_id', 'key_id', 'detail'];

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
    .argument('<email>', "the operator's email address, used to log in")
    .option('--json', 'print as JSON')
    .action(async (email: string, opts: { json?: boolean }, cmd: Command) => {
      const hash = await hashPassword(await newPassword(io));
      const info = await withStore(cmd, (store) => store.addOperator(email, hash), { create: true });
      io.out(opts.json ? json(info) : `added operator ${info.email} (${info.id})`);
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
  return operators;
}

function parseLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000)
    throw new InvalidArgumentError('expected a whole number from 1 to 100000');
  return n;
}

const auditCell = (row: AuditRow) => ({ ...row, detail: JSON.stringify(row.detail) });

export function auditCommand(io: Io): Command {
  return new Command('audit')
    .description('show the audit log of key, import and snapshot publish actions, newest first: who, what, when')
    .option('--facility <id>', 'only this facility')
    .option('--limit <n>', 'how many entries', parseLimit, AUDIT_DEFAULT_LIMIT)
    .option('--json', 'print as JSON')
    .addHelpText('after', '\nExample:\n  $ listings audit --facility wro-1 --limit 20')
    .action(async (opts: { facility?: string; limit: number; json?: boolean }, cmd: Command) => {
      const rows = await withStore(cmd, (store) => store.listAudit({ facilityId: opts.facility, limit: opts.limit }));
      io.out(opts.json ? json(rows) : table(rows.map(auditCell), AUDIT_COLUMNS));
    });
}
