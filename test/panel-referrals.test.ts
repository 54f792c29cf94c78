// A key's referrals in the panel: the last 30 days as a chart and a table of the counted clicks, and a month's CSV that
// is the CLI's statement for the key's ref.
import { describe, expect, it } from 'vitest';
import { referralCsv } from '../server/domain/referral-report.ts';
import { usePanel } from './helpers/panel.ts';

const panel = usePanel();
const { session } = panel.client;
const dayAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

describe("a key's referrals", () => {
  it('shows the last 30 days as a chart and a table, and a month as the CSV statement', async () => {
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'Odra', ref: 'odra' });
    const row = (day: string, listing_code: string, clicks: number, unique_visitors: number, ref = 'odra') => ({
      facility_id: 'wro-1',
      listing_code,
      ref,
      day,
      clicks,
      unique_visitors,
    });
    await panel.store.recordClicks([
      row(dayAgo(0), 'M-07', 5, 3),
      row(dayAgo(0), 'L-12', 2, 2),
      row(dayAgo(2), 'M-07', 4, 1),
      row(dayAgo(40), 'M-07', 9, 9),
      row(dayAgo(0), 'M-07', 7, 7, 'someone-else'),
    ]);
    const s = await session();
    const page = String((await s.as('GET', `/keys/${info.id}/referrals`)).body);
    // The chart is a picture for sighted readers: hidden from screen readers, who get the table; its words are HTML
    // outside the SVG, so they keep the page's font size at any chart width.
    const figure = /<figure class="referral-figure" aria-hidden="true">([\s\S]*?)<\/figure>/.exec(page)?.[1] ?? '';
    const svg = /<svg class="referral-chart"[\s\S]*?<\/svg>/.exec(figure)?.[0] ?? '';
    expect(svg.match(/<rect /g)).toHaveLength(30);
    expect(svg).not.toContain('<text');
    expect(figure).toContain(`<span>${dayAgo(29)}</span><span>${dayAgo(0)}</span>`);
    expect(figure).toContain('Clicks: 7');
    const rows = [...page.matchAll(/<tr><th scope="row">([\d-]+)<\/th><td>(\d+)<\/td><td>(\d+)<\/td><\/tr>/g)].map(
      (m) => m.slice(1),
    );
    expect(rows).toEqual([
      [dayAgo(2), '4', '1'],
      [dayAgo(0), '7', '5'],
    ]);
    expect(String((await s.as('GET', '/facilities/wro-1/api')).body)).toContain(`/keys/${info.id}/referrals`);

    const month = dayAgo(0).slice(0, 7);
    const csv = await s.as('GET', `/keys/${info.id}/statement?month=${month}`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toContain(`referrals-wro-1-odra-${month}.csv`);
    const rowsOfMonth = await panel.store.referrals({
      facilityId: 'wro-1',
      ref: 'odra',
      from: `${month}-01`,
      to: `${month}-31`,
    });
    expect(String(csv.body)).toBe(referralCsv(rowsOfMonth));
    expect(String(csv.body)).not.toContain('someone-else');
    expect((await s.as('GET', `/keys/${info.id}/statement?month=2026-13`)).status).toBe(400);
  });

  it('says so when there are no clicks, with no chart', async () => {
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'Quiet' });
    const page = String((await (await session()).as('GET', `/keys/${info.id}/referrals`)).body);
    expect(page).toContain('No clicks in the last 30 days.');
    expect(page).not.toContain('<svg');
  });
});
