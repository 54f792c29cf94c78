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

/** A day's bar: clicks as an outlined bar, unique visitors as a dot on it (told apart by shape, not colour). */
function bar(c: DayCount, x: number, step: number, y: (n: number) => number): Html {
  const dot =
    c.unique_visitors > 0
      ? html`<circle cx="${(x + step / 2).toFixed(1)}" cy="${y(c.unique_visitors).toFixed(1)}" r="5" fill="currentColor"/>`
      : '';
  return html`<rect x="${(x + step * 0.15).toFixed(1)}" y="${y(c.clicks).toFixed(1)}" width="${(step * 0.7).toFixed(1)}" height="${(H - PAD - y(c.clicks)).toFixed(1)}" fill="none" stroke="currentColor"/>${dot}`;
}

/**
 * The chart and its legend, hidden from screen readers (the table below has every value). Its words are HTML beside
 * the SVG, not in it, so they keep the page's font size however wide the chart is drawn.
 */
function chart({ t }: Texts, counts: readonly DayCount[]): Html {
  const top = Math.max(1, ...counts.map((c) => c.clicks));
  const step = (W - 2 * PAD) / counts.length;
  const y = (n: number) => H - PAD - ((H - 2 * PAD) * n) / top;
  const swatch = (shape: Html) =>
    html`<svg viewBox="0 0 10 12" width="10" height="12" focusable="false">${shape}</svg>`;
  return html`<figure class="referral-figure" aria-hidden="true">
<div class="referral-axis"><span>${t.clicks}: ${top}</span></div>
<svg class="referral-chart" viewBox="0 0 ${W} ${H}" width="100%" focusable="false">
<line x1="${PAD}" y1="${PAD}" x2="${W - PAD}" y2="${PAD}" stroke="currentColor" stroke-dasharray="2 4" opacity=".6"/>
<line x1="${PAD}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" stroke="currentColor"/>
${counts.map((c, i) => bar(c, PAD + i * step, step, y))}
</svg>
<div class="referral-axis"><span>${counts[0]?.day ?? ''}</span><span>${counts.at(-1)?.day ?? ''}</span></div>
<p class="muted">${swatch(html`<rect x="2" y="0.5" width="6" height="11" fill="none" stroke="currentColor"/>`)} ${t.clicks} · ${swatch(html`<circle cx="5" cy="6" r="3.5" fill="currentColor"/>`)} ${t.uniqueVisitors}</p>
</figure>`;
}

export function referralsBody(tx: Texts, k: KeyInfo, counts: readonly DayCount[], month: string): Html {
  const { t } = tx;
  const total = counts.reduce((n, c) => n + c.clicks, 0);
  const statement = html`<form method="get" action="/keys/${encodeURIComponent(k.id)}/statement" class="row">
<label for="month">${t.month}</label> <input id="month" name="month" type="month" value="${month}" required>
<button type="submit">${t.download}</button></form>`;
  return html`<p>${t.last30} <code>ref=${k.ref}</code></p>
${total === 0 ? html`<p class="muted">${t.noClicks}</p>` : chart(tx, counts)}
<table class="referrals"><caption>${t.referrals}</caption>
<thead><tr><th scope="col">${t.day}</th><th scope="col">${t.clicks}</th><th scope="col">${t.uniqueVisitors}</th></tr></thead>
<tbody>${counts.filter((c) => c.clicks > 0).map((c) => html`<tr><th scope="row">${c.day}</th><td>${c.clicks}</td><td>${c.unique_visitors}</td></tr>`)}</tbody>
</table>
<h2>${t.statement}</h2>
${statement}`;
}
