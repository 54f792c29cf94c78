// What the rental page shows beyond the unit's price and facts, as the widget shows it: the promotions, the price per
// period while they run, the total due at move-in, protection, unit type, features, floor and door, and the facility's
// address, hours and amenities, in the page's language. Each part is empty for a listing or facility that lacks it.
import type { Facility } from '../../domain/facility.ts';
import { formatMoney, formatNumber, formatPeriod } from '../../../shared/format.ts';
import { DAYS, type Detail, type Hours, type MoveInPart, type Price } from '../../../shared/listing.ts';
import { cheapestPlan } from '../../../shared/move-in.ts';
import { fill, Html, html } from './html.ts';
import { dateIn, dayName, type Speech } from './rental-texts.ts';

const perPeriod = (p: Price, s: Speech) =>
  fill(s.t.pricePer, {
    price: formatMoney(p.gross, p.currency, s.language),
    period: formatPeriod(p.period, s.language),
  });

/** "Month 1", "Months 2–3", "From month 4": billing periods counted in the listing's own period. */
function periodsText(period: string, from: number, to: number | null, s: Speech): Html {
  const unit = formatPeriod(period, s.language);
  const template = to === null ? s.t.periodOpen : to > from ? s.t.periodRange : s.t.periodOne;
  return fill(template, { unit, from, to });
}

/** The promotion that sets the first promoted run's price: the one the widget's card shows. */
function winningPromotion(d: Detail) {
  const code = d.schedule.find((run) => run.promotion !== null)?.promotion;
  return d.promotions.find((p) => p.code === code);
}

/**
 * The price line: with a promotion, its title, the promoted price and the regular one struck through, said as one
 * sentence for screen readers (most do not announce a strikethrough); without one, the regular price.
 */
export function priceLine(d: Detail, s: Speech): Html {
  const { price } = d;
  const regular = formatMoney(price.gross, price.currency, s.language);
  const periodName = formatPeriod(price.period, s.language);
  const period = html`<span class="period">${fill(s.t.per, { period: periodName })}</span>`;
  const plain = html`<span class="gross" data-field="gross" data-minor="${price.gross}">${regular}</span>`;
  const winner = winningPromotion(d);
  if (!winner) return html`<p class="price">${plain} ${period}</p>`;
  const promoted = formatMoney(winner.price.gross, price.currency, s.language);
  return html`<p class="promotion-title" data-field="promotion">${winner.title}</p>
  <p class="price promoted"><span aria-hidden="true"><span class="promoted-price" data-field="promoted" data-minor="${winner.price.gross}">${promoted}</span> <s class="regular-price">${plain}</s> ${period}</span><span class="sr-only">${fill(s.t.instead, { price: promoted, regular, period: periodName })}</span></p>`;
}

/** Every active promotion: its title, its price per period, its periods, terms and window. */
export function promotionsPart(d: Detail, f: Facility, s: Speech): Html | '' {
  if (d.promotions.length === 0) return '';
  const lower = (h: Html) => (s.language === 'en' ? new Html(h.text.toLowerCase()) : h);
  return html`<section class="promotions"><h2>${s.t.promotions}</h2><ul>${d.promotions.map(
    (p) =>
      html`<li data-promotion="${p.code}">${fill(s.t.promotion, {
        title: html`<strong>${p.title}</strong>`,
        price: perPeriod(p.price, s),
        periods: lower(periodsText(d.price.period, p.from_period, p.to_period, s)),
      })}${p.ends_at ? fill(s.t.until, { date: html`<time datetime="${p.ends_at}">${dateIn(p.ends_at, s.language, f.timezone)}</time>` }) : ''}.${p.new_tenants_only ? s.t.newTenants : ''}${p.terms ? html` <span class="terms">${p.terms}</span>` : ''}</li>`,
  )}</ul></section>`;
}

/** What a new tenant pays per period while promotions run, then the regular price; nothing without a promotion. */
export function schedulePart(d: Detail, s: Speech): Html | '' {
  if (d.schedule.length < 2) return '';
  const { currency, period } = d.price;
  return html`<section class="schedule"><h2>${s.t.schedule}</h2><table data-field="schedule"><tbody>${d.schedule.map(
    (run) =>
      html`<tr><th scope="row">${periodsText(period, run.from_period, run.to_period, s)}</th><td data-minor="${run.gross}">${formatMoney(run.gross, currency, s.language)}</td><td>${d.promotions.find((p) => p.code === run.promotion)?.title ?? s.t.regularPrice}</td></tr>`,
  )}</tbody></table></section>`;
}

/** A move-in part's words: the first period, the deposit, the fee's or protection plan's own title. */
function partLabel({ kind, code }: MoveInPart, d: Detail, s: Speech): Html | string {
  if (kind === 'first_period') return fill(s.t.firstPeriod, { period: formatPeriod(d.price.period, s.language) });
  if (kind === 'deposit') return s.t.depositNoVat;
  const named = kind === 'fee' ? d.fees : d.protection?.plans;
  return named?.find((x) => x.code === code)?.title ?? code ?? '';
}

/** The total due at move-in and each of its parts, as the widget's details dialog shows them. */
export function moveInPart(d: Detail, s: Speech): Html {
  const { move_in: m } = d;
  return html`<section class="move-in"><h2>${s.t.moveIn}</h2><table data-field="move_in"><tbody>${m.parts.map(
    (part) =>
      html`<tr data-part="${part.kind}"><th scope="row">${partLabel(part, d, s)}</th><td data-minor="${part.gross}">${formatMoney(part.gross, m.currency, s.language)}</td></tr>`,
  )}</tbody><tfoot><tr><th scope="row">${s.t.total}</th><td data-field="move_in_total" data-minor="${m.gross}">${formatMoney(m.gross, m.currency, s.language)}</td></tr></tfoot></table></section>`;
}

/** Fees due later than move-in (move-out), protection and the unit's own facts, each a row of the facts list. */
export function termFacts(d: Detail, s: Speech): Html[] {
  const { t, language } = s;
  const rows: Html[] = [];
  if (d.unit_type)
    rows.push(html`<dt>${t.unitType}</dt><dd data-field="unit_type">${s.labels.unitTypes[d.unit_type]}</dd>`);
  if (typeof d.floor === 'number')
    rows.push(
      html`<dt>${t.floor}</dt><dd data-field="floor">${d.floor === 0 ? t.groundFloor : formatNumber(d.floor, language)}</dd>`,
    );
  if (d.door)
    rows.push(
      html`<dt>${t.door}</dt><dd data-field="door">${formatNumber(d.door.width_m, language)} × ${formatNumber(d.door.height_m, language)}\u00a0m</dd>`,
    );
  for (const fee of d.fees.filter((f) => f.when === 'move_out'))
    rows.push(
      html`<dt>${fee.title}</dt><dd data-fee="${fee.code}">${fill(t.atMoveOut, { price: formatMoney(fee.amount.gross, fee.amount.currency, language) })}</dd>`,
    );
  return rows;
}

/** The protection plans, the cheapest that fits the listing's period marked, and whether one must be taken. */
export function protectionPart(d: Detail, s: Speech): Html | '' {
  const p = d.protection;
  if (!p || p.plans.length === 0) return '';
  const priced = p.plans.map((plan) => ({
    plan,
    code: plan.code,
    price_gross: plan.price.gross,
    vat_rate: plan.price.vat_rate,
    period: plan.price.period,
  }));
  const cheapest = cheapestPlan(priced, d.price.period)?.code;
  return html`<section class="protection"><h2>${s.t.protection}</h2><p data-field="protection" data-required="${String(p.required)}">${p.required ? s.t.protectionRequired : s.t.protectionOptional}</p><ul>${p.plans.map(
    (plan) =>
      html`<li${plan.code === cheapest ? html` class="cheapest"` : ''}>${fill(s.t.plan, {
        plan: html`<strong>${plan.title}</strong>`,
        price: perPeriod(plan.price, s),
        cover: formatMoney(plan.cover.amount, plan.cover.currency, s.language),
      })}</li>`,
  )}</ul></section>`;
}

/** The unit's features as a list of labels. */
export function featuresPart(d: Detail, s: Speech): Html | '' {
  if (d.features.length === 0) return '';
  return html`<ul class="features" data-field="features">${d.features.map((f) => html`<li data-feature="${f}">${s.labels.features[f]}</li>`)}</ul>`;
}

/** The facility on openstreetmap.org, marked and zoomed to its street: a plain link, no map script or tile. */
const mapUrl = ({ lat, lng }: { lat: number; lng: number }) =>
  `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=17/${lat}/${lng}`;

const isAlwaysOpen = (hours: Hours) => DAYS.every((day) => hours[day].length === 1 && hours[day][0] === '00:00-24:00');

/** A week of hours as a table, a row per day; "Open 24/7" for every day open all day. */
function hoursTable(label: string, field: string, hours: Hours, timezone: string | null, s: Speech): Html {
  const caption = html`<caption>${label}${timezone ? html` <span class="zone">(${timezone})</span>` : ''}</caption>`;
  if (isAlwaysOpen(hours))
    return html`<table class="hours" data-field="${field}">${caption}<tbody><tr><td>${s.t.open247}</td></tr></tbody></table>`;
  return html`<table class="hours" data-field="${field}">${caption}<tbody>${DAYS.map(
    (day) =>
      html`<tr><th scope="row">${dayName(day, s.language)}</th><td>${hours[day].length ? hours[day].join(', ').replaceAll('-', '–') : s.t.closed}</td></tr>`,
  )}</tbody></table>`;
}

/**
 * The facility: its address with a link to the map, its office and access hours (a cached page cannot know what is
 * open now: the widget says that), and its amenities; nothing when the import gives none of them.
 */
export function facilityPart(f: Facility, s: Speech): Html | '' {
  const { address: a, geo, office_hours, access_hours, amenities, timezone } = f;
  if (!a && !geo && !office_hours && !access_hours && amenities.length === 0) return '';
  const line = a ? [a.street, `${a.postal_code ?? ''} ${a.city}`.trim(), a.region, a.country].filter(Boolean) : [];
  return html`<section class="facility-info"><h2>${f.name}</h2>
${line.length || geo ? html`<p class="address" data-field="address">${line.join(', ')}${geo ? html` <a class="map" href="${mapUrl(geo)}">${s.t.map}</a>` : ''}</p>` : ''}
${office_hours || access_hours ? html`<div class="hours-tables">${office_hours ? hoursTable(s.t.officeHours, 'office_hours', office_hours, timezone, s) : ''}${access_hours ? hoursTable(s.t.accessHours, 'access_hours', access_hours, timezone, s) : ''}</div>` : ''}
${amenities.length ? html`<ul class="amenities" data-field="amenities">${amenities.map((x) => html`<li data-amenity="${x}">${s.labels.amenities[x]}</li>`)}</ul>` : ''}
</section>`;
}
