// `listings audit`: who did what to keys, data, snapshots and accounts, newest first, filtered as the panel's page is.
import { Command, InvalidArgumentError } from 'commander';
import { dayAfter, isDay } from '../../server/domain/audit-days.ts';
import { ListingsError } from '../../server/errors.ts';
import { AUDIT_ACTIONS, AUDIT_DEFAULT_LIMIT, type AuditRow } from '../../server/store/audit.ts';
import { withStore } from '../context.ts';
import { json, table, type Io } from '../io.ts';

const AUDIT_COLUMNS = ['at', 'actor', 'action', 'facility_id', 'key_id', 'detail'];

function parseLimit(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000)
    throw new InvalidArgumentError('expected a whole number from 1 to 100000');
  return n;
}

function parseAction(value: string): string {
  if (!(AUDIT_ACTIONS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`expected one of ${AUDIT_ACTIONS.join(', ')}`);
  return value;
}

/**
 * A full ISO 8601 time, as the ISO text the log's times compare with; text shaped as a day that is none (2026-02-30)
 * is refused, as the panel refuses it, rather than rolled over.
 */
function isoTime(value: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(value) ? NaN : Date.parse(value);
  if (Number.isNaN(ms)) throw new InvalidArgumentError('expected a day (2026-03-01) or an ISO 8601 time');
  return new Date(ms).toISOString();
}

/** A bound of the window as typed, and as the log's times compare with it. */
interface Bound {
  given: string;
  at: string;
}

/** `--since`: a day (YYYY-MM-DD, UTC) from its start, or a time. */
const parseSince = (value: string): Bound => ({ given: value, at: isDay(value) ? value : isoTime(value) });

/** `--until`: a day (YYYY-MM-DD, UTC) included whole, as the panel's "to" is, or a time, itself excluded. */
const parseUntil = (value: string): Bound => ({ given: value, at: isDay(value) ? dayAfter(value) : isoTime(value) });

/** A window with nothing in it is a mistake in the options, as `referrals --from` after `--to` is. */
function checkWindow(since: Bound | undefined, until: Bound | undefined): void {
  if (since && until && Date.parse(since.at) >= Date.parse(until.at))
    throw new ListingsError('invalid_range', `--since ${since.given} is not before --until ${until.given}`);
}

const auditCell = (row: AuditRow) => ({ ...row, detail: JSON.stringify(row.detail) });

export function auditCommand(io: Io): Command {
  return new Command('audit')
    .description('show the audit log of key, import, snapshot and account actions, newest first: who, what, when')
    .option('--facility <id>', 'only this facility')
    .option('--actor <who>', 'only what this operator (email) or cli:<OS user> did')
    .option('--action <action>', `only this action: ${AUDIT_ACTIONS.join(', ')}`, parseAction)
    .option('--since <time>', 'only from this day or time on (UTC)', parseSince)
    .option('--until <time>', 'only up to this day, the day included, or before this time (UTC)', parseUntil)
    .option('--limit <n>', 'how many entries', parseLimit, AUDIT_DEFAULT_LIMIT)
    .option('--json', 'print as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings audit --facility wro-1 --limit 20\n  $ listings audit --action refused --since 2026-03-01',
    )
    .action(
      async (
        opts: {
          facility?: string;
          actor?: string;
          action?: string;
          since?: Bound;
          until?: Bound;
          limit: number;
          json?: boolean;
        },
        cmd: Command,
      ) => {
        checkWindow(opts.since, opts.until);
        const query = {
          facilityId: opts.facility,
          actor: opts.actor,
          action: opts.action,
          from: opts.since?.at,
          to: opts.until?.at,
          limit: opts.limit,
        };
        const rows = await withStore(cmd, (store) => store.listAudit(query));
        io.out(opts.json ? json(rows) : table(rows.map(auditCell), AUDIT_COLUMNS));
      },
    );
}
