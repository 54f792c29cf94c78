// A key's referrals: clicks and unique visitors on its rent links over the last 30 days, as an inline SVG chart that
// needs no script or colour (clicks as bars, visitors as dots, every value also in the table), and a month's CSV.
import { html, type Html } from '../../http/pages/html.ts';
import type { KeyInfo } from '../../store/keys.ts';
import type { ReferralRow } from '../../store/referrals.ts';
import type { Texts } from '../i18n/i18n.ts';

const [W, H, PAD] = [600, 160, 24];

/** One entry per day, oldest first; days without clicks are zero. */
export interface DayCount {
  day: string;
  clicks: number;
  unique_visitors: number;
}

export function dayCounts(days: readonly string[], rows: readonly ReferralRow[]): DayCount[] {
  const by = new Map(rows.map((r) => [r.day, r]));
  return days.map((day) => ({
    day,
    clicks: by.get(day)?.clicks ?? 0,
    unique_visitors: by.get(day)?.unique_visitors ?? 0,
  }));
}

/** The chart: a bar per day's clicks and a dot on it at its unique visitors; hidden from screen readers, who get the table. */
function chart(counts: readonly DayCount[]): Html {
  const top = Math.max(1, ...counts.map((c) => c.clicks));
  const step = (W - 2 * PAD) / counts.length;
  const y = (n: number) => H - PAD - ((H - 2 * PAD) * n) / top;
  return html`<svg class="referral-chart" viewBox="0 0 ${W} ${H}" width="100%" role="presentation" aria-hidden="true" focusable="false">
<line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" stroke="currentColor"/>
<text x="${PAD}" y="${PAD - 8}" font-size="11" fill="currentColor">${top}</text>
${counts.map((c, i) => {
  const x = PAD + i * step;
  return html`<rect x="${(x + step * 0.15).toFixed(1)}" y="${y(c.clicks).toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${(H - PAD - y(c.clicks)).toFixed(1)}" fill="none" stroke="currentColor"/>${
    c.unique_visitors > 0
      ? html`<circle cx="${(x + step / 2).toFixed(1)}" cy="${y(c.unique_visitors).toFixed(1)}" r="3" fill="currentColor"/>`
      : ''
  }`;
})}
<text x="${PAD}" y="${H - 6}" font-size="11" fill="currentColor">${counts[0]?.day ?? ''}</text>
<text x="${W - PAD}" y="${H - 6}" font-size="11" fill="currentColor" text-anchor="end">${counts.at(-1)?.day ?? ''}</text>
</svg>`;
}

export function referralsBody({ t }: Texts, k: KeyInfo, counts: readonly DayCount[], month: string): Html {
  const total = counts.reduce((n, c) => n + c.clicks, 0);
  const statement = html`<form method="get" action="/keys/${encodeURIComponent(k.id)}/statement" class="row">
<label for="month">${t.month}</label> <input id="month" name="month" type="month" value="${month}" required>
<button type="submit">${t.download}</button></form>`;
  return html`<p>${t.last30} <code>ref=${k.ref}</code></p>
${total === 0 ? html`<p class="muted">${t.noClicks}</p>` : chart(counts)}
<p class="muted">▯ ${t.clicks} · ● ${t.uniqueVisitors}</p>
<table><caption>${t.referrals}</caption>
<thead><tr><th scope="col">${t.day}</th><th scope="col">${t.clicks}</th><th scope="col">${t.uniqueVisitors}</th></tr></thead>
<tbody>${counts.filter((c) => c.clicks > 0).map((c) => html`<tr><th scope="row">${c.day}</th><td>${c.clicks}</td><td>${c.unique_visitors}</td></tr>`)}</tbody>
</table>
<h2>${t.statement}</h2>
${statement}`;
}
