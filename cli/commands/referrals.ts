// `listings referrals`: clicks on partners' rent links and their unique visitors, as a table, JSON or CSV.
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  parseDay,
  REFERRAL_COLUMNS,
  REFERRAL_GROUPS,
  referralCsv,
  referralQuery,
} from '../../server/domain/referral-report.ts';
import { ListingsError } from '../../server/errors.ts';
import type { ReferralGroup } from '../../server/store/referrals.ts';
import { withStore } from '../context.ts';
import { checkFacilityFilter } from '../facility-filter.ts';
import { json, table, type Io } from '../io.ts';

function dayOption(value: string): string {
  try {
    return parseDay(value);
  } catch (err) {
    if (err instanceof ListingsError) throw new InvalidArgumentError(err.message);
    throw err;
  }
}

export function referralsCommand(io: Io): Command {
  return new Command('referrals')
    .description("clicks on partners' rent links and unique visitors, per facility, ref, listing and UTC day")
    .option('--facility <id>', 'only this facility')
    .option('--from <day>', 'first day (UTC, YYYY-MM-DD; default: 29 days before --to)', dayOption)
    .option('--to <day>', 'last day (UTC, YYYY-MM-DD; default: today)', dayOption)
    .addOption(new Option('--by <column>', 'sum by one column only').choices(REFERRAL_GROUPS))
    .addOption(new Option('--json', 'print as JSON').conflicts('csv'))
    .option('--csv', 'print as CSV (RFC 4180), the statement a partner is paid on')
    .addHelpText(
      'after',
      '\nExamples:\n  $ listings referrals --facility wro-1 --by ref\n  $ listings referrals --from 2026-11-01 --to 2026-11-30 --csv > november.csv',
    )
    .action(
      async (
        opts: { facility?: string; from?: string; to?: string; by?: ReferralGroup; json?: boolean; csv?: boolean },
        cmd: Command,
      ) => {
        const query = referralQuery({ facilityId: opts.facility, from: opts.from, to: opts.to, by: opts.by });
        const rows = await withStore(cmd, async (store) => {
          await checkFacilityFilter(store, opts.facility);
          return store.referrals(query);
        });
        if (opts.json) io.out(json(rows));
        else if (opts.csv) io.out(referralCsv(rows));
        else io.out(table(rows, [...REFERRAL_COLUMNS]));
      },
    );
}
