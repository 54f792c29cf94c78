// What the details dialog shows beyond the unit's facts: the price per period while promotions run (the schedule), the
// total due at move-in with its parts, protection, the door and the floor.
import { html, nothing, type TemplateResult } from 'lit';
import { formatMoney, formatNumber, formatPeriod } from '../../shared/format.ts';
import { periodCount, runInUnits } from '../../shared/period-count.ts';
import type { MoveInPart } from '../../shared/listing.ts';
import { periodText, type View } from './cards.ts';
import { cheapestPlanOf, type ListingDetail, type Terms } from './listing.ts';

/** One row of a `<dl>`. */
export const fact = (label: string, value: unknown) => html`<div><dt>${label}</dt><dd>${value}</dd></div>`;

/** The facts rows of protection, the door and the floor, each only when the listing says. */
export function termFacts(d: ListingDetail, v: View): TemplateResult[] {
  const { protection, door, floor } = d;
  const plan = protection && cheapestPlanOf(protection, d.price.period);
  const rows = [];
  if (plan) {
    const { gross, currency } = plan.price;
    // The plan's title between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: a direction control in it stays in it.
    const vars = {
      plan: `\u2068${plan.title}\u2069`,
      price: `${formatMoney(gross, currency, v.locale)} ${periodText(plan.price, v)}`,
    };
    rows.push(fact(v.t('protection'), v.t(protection.required ? 'protectionRequired' : 'protectionOptional', vars)));
  }
  if (door)
    rows.push(
      fact(v.t('door'), `${formatNumber(door.width_m, v.locale)} × ${formatNumber(door.height_m, v.locale)}\u00a0m`),
    );
  if (typeof floor === 'number') {
    rows.push(fact(v.t('floor'), floor ? formatNumber(floor, v.locale) : v.t.word('featureNames', 'ground_floor')));
  }
  return rows;
}

/**
 * "month 1", "month 2–3", "month 4+" (capitalised by the stylesheet): billing periods counted in their unit, as the rental
 * page counts them (periods 1–2 of P3M are "month 1–6"), or in the listing's own period when no one unit counts it.
 */
function periods(d: ListingDetail, first: number, last: number | null, v: View): string {
  const { period, from, to } = runInUnits(d.price.period, first, last) ?? {
    period: d.price.period,
    from: first,
    to: last,
  };
  return `${formatPeriod(period, v.locale)} ${from}${to === null ? '+' : to > from ? `–${to}` : ''}`;
}

/** The price of each run of periods and the promotion that sets it; nothing while the regular price is all there is. */
export function scheduleSection(d: ListingDetail, terms: Terms, v: View): TemplateResult | typeof nothing {
  const { schedule, promotions } = terms;
  if (schedule.length < 2) return nothing;
  const money = (gross: number) => formatMoney(gross, d.price.currency, v.locale);
  // prettier-ignore
  return html`<section class="terms schedule"><h3>${v.t('schedule')}</h3><dl>${schedule.map((run) => fact(periods(d, run.from_period, run.to_period, v), html`${money(run.gross)} <bdi class="muted">${promotions.find((p) => p.code === run.promotion)?.title}</bdi>`))}</dl></section>`;
}

/** A move-in part's words: the first period (as the rental page says it), the deposit, the fee's or plan's own title. */
function partLabel({ kind, code }: MoveInPart, d: ListingDetail, v: View): string {
  const { period } = d.price;
  if (kind === 'first_period')
    return v.t('firstPeriod', { period: formatPeriod(period, v.locale) }, periodCount(period));
  if (kind === 'deposit') return v.t('deposit');
  const named = kind === 'fee' ? d.fees : d.protection?.plans;
  return named?.find((x) => x.code === code)?.title ?? code ?? '';
}

/** The total due at move-in and each of its parts. */
export function moveInSection(d: ListingDetail, terms: Terms, v: View): TemplateResult | typeof nothing {
  const moveIn = terms.move_in;
  if (!moveIn) return nothing;
  const money = (minor: number) => formatMoney(minor, moveIn.currency, v.locale);
  // prettier-ignore
  return html`<section part="move-in" class="terms"><h3>${v.t('moveIn')}</h3><dl>${moveIn.parts.map((part) => fact(partLabel(part, d, v), money(part.gross)))}<div class="total"><dt>${v.t('total')}</dt><dd>${money(moveIn.gross)}</dd></div></dl></section>`;
}
