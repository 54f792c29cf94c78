// A key's referrals in the panel: the last 30 days' chart and table, and a month's statement as the CLI's CSV.
import { daysOf, monthDays, referralCsv, referralQuery } from '../domain/referral-report.ts';
import { ListingsError } from '../errors.ts';
import type { PanelContext, Route } from './context.ts';
import type { Params } from '../http/router.ts';
import { htmlAnswer, plain } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { panelPage } from './pages/layout.ts';
import { dayCounts, referralsBody } from './pages/referrals.ts';

const KEY = '/keys/:key(key_[A-Za-z0-9]{1,64})';

async function keyOf(c: PanelContext, id: string) {
  return (await c.store.listKeys()).find((k) => k.id === id);
}

export function referralRoutes(): Route[] {
  return [
    { path: `${KEY}/referrals`, methods: { GET: { role: 'viewer', run: referrals } } },
    { path: `${KEY}/statement`, methods: { GET: { role: 'viewer', run: statement } } },
  ];
}

async function referrals(c: PanelContext, _req: unknown, { key }: Params): Promise<Answer> {
  const k = await keyOf(c, key!);
  if (!k) return plain(404, 'No such key.');
  const query = referralQuery({ facilityId: k.facility_id, ref: k.ref, by: 'day' });
  const counts = dayCounts(daysOf(query.from, query.to), await c.store.referrals(query));
  const title = `${c.tx.t.referrals}: ${k.label || c.tx.t.unlabelled} …${k.hint}`;
  return htmlAnswer(panelPage(c.tx, title, referralsBody(c.tx, k, counts, query.to.slice(0, 7)), c.who));
}

/** One month's rows of this key's ref, one per listing and day, as `listings referrals --csv` writes them. */
async function statement(c: PanelContext, req: { url: string }, { key }: Params): Promise<Answer> {
  const k = await keyOf(c, key!);
  if (!k) return plain(404, 'No such key.');
  const month = new URL(req.url, 'http://panel').searchParams.get('month') ?? new Date().toISOString().slice(0, 7);
  let days;
  try {
    days = monthDays(month);
  } catch (err) {
    if (err instanceof ListingsError) return plain(400, err.message);
    throw err;
  }
  const rows = await c.store.referrals({ facilityId: k.facility_id, ref: k.ref, ...days });
  return {
    status: 200,
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="referrals-${k.facility_id}-${k.ref}-${month}.csv"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
    body: referralCsv(rows),
  };
}
