// The rental page's HTML: one listing's Detail (and price) as the widget shows it, in the page's language, with the
// widget's JSON-LD for search engines. Each part beyond the price and facts (promotions, the price per period while
// they run, the total due at move-in, protection, unit type, features, floor and door, the facility's address, hours
// and amenities) is empty for a listing or facility that lacks it.
import type { Facility } from '../../domain/facility.ts';
import { bookingUrlOf, facilityInfoOf } from '../../domain/views.ts';
import {
  formatArea,
  formatDimensions,
  formatDuration,
  formatMoney,
  formatNumber,
  formatPercent,
  formatPeriod,
} from '../../../shared/format.ts';
import { selfStorageOf } from '../../../shared/structured-data.ts';
import { DAYS, type Detail, type Hours, type MoveInPart, type Price } from '../../../shared/listing.ts';
import { cheapestPlan } from '../../../shared/move-in.ts';
import { periodCount, runInUnits } from '../../../shared/period-count.ts';
import { fill, Html, html, jsonForScript, page } from './html.ts';
import { dayName, pluralIn, say, type DateFormats, type Speech } from './rental-texts.ts';

/** The page of one listing, made from that listing alone: the very Detail the API answers. */
export function renderListing(d: Detail, facility: Facility, s: Speech, dates: DateFormats): string {
  const { t, language } = s;
  const facilityName = facility.name;
  const { price } = d;
  const soldOut = d.free_units === 0;
  const money = (minor: number, currency: string) => formatMoney(minor, currency, language);
  // The very JSON-LD the widget's structured-data attribute writes for this one listing, with the unit's words and photos.
  const ld = selfStorageOf(facilityInfoOf(facility), [d]);
  ld.makesOffer[0] = { ...ld.makesOffer[0]!, description: d.description, image: d.photos.map((p) => p.url) };
  const net = html`<span data-field="net" data-minor="${price.net}">${money(price.net, price.currency)}</span>`;
  const rate = html`<span data-field="vat_rate">${formatPercent(price.vat_rate, language)}</span>`;
  const free = soldOut ? t.soldOut : fill(pluralIn(language, t.free, d.free_units), { n: d.free_units });
  const body = html`<main class="rent">
<p class="facility">${facilityName}</p>
<h1>${d.title}</h1>
<p class="code">${fill(t.unit, { code: html`<span data-field="code">${d.code}</span>` })}</p>
<section class="offer">
  ${priceLine(d, s)}
  <p class="net">${fill(t.net, { net, rate })}${d.dynamic_pricing ? html` <span class="dynamic">${t.dynamic}</span>` : ''}</p>
  <p class="availability" data-field="free_units" data-count="${d.free_units}">${free}</p>
  ${soldOut ? html`<p class="cta disabled">${t.soldOutNow}</p>` : rentAction(facility, d, s)}
</section>
${featuresPart(d, s)}
<dl class="facts">
  <dt>${t.area}</dt><dd data-field="area_m2">${formatArea(d.area_m2, language)}</dd>
  <dt>${t.dimensions}</dt><dd data-field="dimensions">${formatDimensions(d.dimensions, language)}</dd>
  <dt>${t.deposit}</dt><dd data-field="deposit" data-minor="${d.deposit.amount}">${money(d.deposit.amount, d.deposit.currency)}</dd>
  <dt>${t.minRental}</dt><dd data-field="min_rental_period">${formatDuration(d.min_rental_period, language)}</dd>
  <dt>${t.notice}</dt><dd data-field="notice_period">${formatDuration(d.notice_period, language)}</dd>
  ${termFacts(d, s)}
</dl>
${promotionsPart(d, facility, s, dates)}
${schedulePart(d, s)}
${moveInPart(d, s)}
${protectionPart(d, s)}
<p class="description">${d.description}</p>
<section class="photos">
${
  d.photos.length === 0
    ? html`<figure class="no-photo"><div class="placeholder" role="img" aria-label="${t.noPhoto}"><svg viewBox="0 0 48 36" aria-hidden="true"><rect x="4" y="8" width="40" height="26" rx="3"/><path d="M4 30l12-11 9 8 6-5 13 8"/><circle cx="33" cy="16" r="3"/></svg></div><figcaption>${t.noPhoto}</figcaption></figure>`
    : d.photos.map(
        (p) =>
          html`<figure><img src="${safeUrl(p.url)}" alt="${p.caption}" loading="lazy"${p.width ? html` width="${p.width}"` : ''}${p.height ? html` height="${p.height}"` : ''}><figcaption>${p.caption}</figcaption></figure>`,
      )
}
</section>
${facilityPart(facility, s)}
<section class="book"><h2>${t.howToRent}</h2><p>${nextSteps(facility, s)}</p></section>
</main>`;
  return page(`${isolatedText(d.title)} · ${isolatedText(facilityName)}`, body, {
    lang: language,
    description: say(t.description, { title: d.title, facility: facilityName }),
    // One address for search engines however the visitor came (`?ref=` from a partner's click): the rental page.
    head: html`<link rel="canonical" href="${safeUrl(d.rent_url)}">
<script type="application/ld+json">${jsonForScript(ld)}</script>`,
  });
}

/**
 * The Rent action leads somewhere real: the operator's booking page, or an email to the operator, or (with neither in
 * the import) no button at all, and a sentence that says so.
 */
function rentAction(facility: Facility, d: Detail, { t }: Speech): Html {
  const booking = bookingUrlOf(facility, d.code);
  if (booking) return html`<p class="cta"><a class="button" href="${safeUrl(booking)}">${t.rent}</a></p>`;
  if (facility.contact_email) {
    const subject = encodeURIComponent(say(t.mailSubject, { code: d.code, title: d.title }));
    return html`<p class="cta"><a class="button" href="mailto:${facility.contact_email}?subject=${subject}">${fill(t.rentByEmail, { name: own(facility.name) })}</a></p>`;
  }
  if (facility.contact_phone)
    return html`<p class="cta"><a class="button" href="tel:${telOf(facility.contact_phone)}">${fill(t.rentByPhone, { phone: facility.contact_phone })}</a></p>`;
  return html`<p class="cta note">${fill(t.rentContact, { name: own(facility.name) })}</p>`;
}

/**
 * A value the operator wrote, set among the page's words: a bidi isolate, so that a direction control in it (U+202E)
 * turns that value alone and not the words after it. A value alone in a block (h1, p, dt, th, td) is one already, by
 * the browser's own stylesheet; site.css isolates the inline elements that hold one (`strong`, `.terms`).
 */
const own = (value: string): Html => html`<bdi>${value}</bdi>`;

/** The same for plain text (the document's title): the value between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE. */
const isolatedText = (value: string): string => `\u2068${value}\u2069`;

const telOf = (phone: string) => phone.replace(/[^+0-9]/g, '');

function nextSteps(facility: Facility, { t }: Speech): Html {
  const ways: Html[] = [];
  if (facility.contact_email)
    ways.push(
      fill(t.email, { address: html`<a href="mailto:${facility.contact_email}">${facility.contact_email}</a>` }),
    );
  if (facility.contact_phone)
    ways.push(
      fill(t.call, { phone: html`<a href="tel:${telOf(facility.contact_phone)}">${facility.contact_phone}</a>` }),
    );
  const reach = html`${ways.flatMap((w, i) => (i === 0 ? [w] : [t.or, w]))}`;
  const name = own(facility.name);
  if (facility.booking_url)
    return html`${fill(t.stepsBooking, { name })}${ways.length ? fill(t.stepsQuestions, { reach: capitalized(reach) }) : ''}`;
  if (ways.length) return fill(t.stepsDirect, { name, reach });
  return fill(t.stepsNone, { name });
}

/** A sentence's first word: a bare letter gets its capital ("Email ..."), markup is left as it is. */
const capitalized = (h: Html) => new Html(h.text.charAt(0).toUpperCase() + h.text.slice(1));

function safeUrl(url: string): string {
  return /^https?:\/\//i.test(url) ? url : '';
}

const perPeriod = (p: Price, s: Speech) =>
  fill(s.t.pricePer, {
    price: formatMoney(p.gross, p.currency, s.language),
    period: formatPeriod(p.period, s.language),
  });

/**
 * "Month 1", "Months 2–3", "From month 4": billing periods counted in their unit (periods 1–2 of P3M are "Months 1–6"),
 * or as periods when no one unit counts the listing's period (P1M2W).
 */
function periodsText(period: string, first: number, last: number | null, s: Speech): Html {
  const run = runInUnits(period, first, last);
  const unit = run ? formatPeriod(run.period, s.language) : s.t.billingPeriod;
  const { from, to } = run ?? { from: first, to: last };
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
function priceLine(d: Detail, s: Speech): Html {
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
function promotionsPart(d: Detail, f: Facility, s: Speech, dates: DateFormats): Html | '' {
  if (d.promotions.length === 0) return '';
  const lower = (h: Html) => (s.language === 'en' ? new Html(h.text.toLowerCase()) : h);
  return html`<section class="promotions"><h2>${s.t.promotions}</h2><ul>${d.promotions.map(
    (p) =>
      html`<li data-promotion="${p.code}">${fill(s.t.promotion, {
        title: html`<strong>${p.title}</strong>`,
        price: perPeriod(p.price, s),
        periods: lower(periodsText(d.price.period, p.from_period, p.to_period, s)),
      })}${p.ends_at ? fill(s.t.until, { date: html`<time datetime="${p.ends_at}">${dates.dateIn(lastMomentBefore(p.ends_at), s.language, f.timezone)}</time>` }) : ''}.${p.new_tenants_only ? s.t.newTenants : ''}${p.terms ? html` <span class="terms">${p.terms}</span>` : ''}</li>`,
  )}</ul></section>`;
}

/** What a new tenant pays per period while promotions run, then the regular price; nothing without a promotion. */
function schedulePart(d: Detail, s: Speech): Html | '' {
  if (d.schedule.length < 2) return '';
  const { currency, period } = d.price;
  return html`<section class="schedule"><h2>${s.t.schedule}</h2><table data-field="schedule"><tbody>${d.schedule.map(
    (run) =>
      html`<tr><th scope="row">${periodsText(period, run.from_period, run.to_period, s)}</th><td data-minor="${run.gross}">${formatMoney(run.gross, currency, s.language)}</td><td>${d.promotions.find((p) => p.code === run.promotion)?.title ?? s.t.regularPrice}</td></tr>`,
  )}</tbody></table></section>`;
}

/** A move-in part's words: the first period, the deposit, the fee's or protection plan's own title. */
function partLabel({ kind, code }: MoveInPart, d: Detail, s: Speech): Html | string {
  if (kind === 'first_period') {
    const { period } = d.price;
    const words = pluralIn(s.language, s.t.firstPeriod, periodCount(period));
    return fill(words, { period: formatPeriod(period, s.language) });
  }
  if (kind === 'deposit') return s.t.depositNoVat;
  const named = kind === 'fee' ? d.fees : d.protection?.plans;
  return named?.find((x) => x.code === code)?.title ?? code ?? '';
}

/** The total due at move-in and each of its parts, as the widget's details dialog shows them. */
function moveInPart(d: Detail, s: Speech): Html {
  const { move_in: m } = d;
  return html`<section class="move-in"><h2>${s.t.moveIn}</h2><table data-field="move_in"><tbody>${m.parts.map(
    (part) =>
      html`<tr data-part="${part.kind}"><th scope="row">${partLabel(part, d, s)}</th><td data-minor="${part.gross}">${formatMoney(part.gross, m.currency, s.language)}</td></tr>`,
  )}</tbody><tfoot><tr><th scope="row">${s.t.total}</th><td data-field="move_in_total" data-minor="${m.gross}">${formatMoney(m.gross, m.currency, s.language)}</td></tr></tfoot></table></section>`;
}

/** Fees due later than move-in (move-out), protection and the unit's own facts, each a row of the facts list. */
function termFacts(d: Detail, s: Speech): Html[] {
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
function protectionPart(d: Detail, s: Speech): Html | '' {
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
function featuresPart(d: Detail, s: Speech): Html | '' {
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
function facilityPart(f: Facility, s: Speech): Html | '' {
  const { address: a, geo, office_hours, access_hours, amenities, timezone } = f;
  if (!a && !geo && !office_hours && !access_hours && amenities.length === 0) return '';
  const line = a ? addressParts(a) : [];
  return html`<section class="facility-info"><h2>${f.name}</h2>
${line.length || geo ? html`<p class="address" data-field="address">${line.flatMap((part, i) => (i === 0 ? [part] : [', ', part]))}${geo ? html` <a class="map" href="${mapUrl(geo)}">${s.t.map}</a>` : ''}</p>` : ''}
${office_hours || access_hours ? html`<div class="hours-tables">${office_hours ? hoursTable(s.t.officeHours, 'office_hours', office_hours, timezone, s) : ''}${access_hours ? hoursTable(s.t.accessHours, 'access_hours', access_hours, timezone, s) : ''}</div>` : ''}
${amenities.length ? html`<ul class="amenities" data-field="amenities">${amenities.map((x) => html`<li data-amenity="${x}">${s.labels.amenities[x]}</li>`)}</ul>` : ''}
</section>`;
}

/** The address as the page writes it, each value the operator wrote isolated: street, postal code and city, region. */
function addressParts(a: NonNullable<Facility['address']>): Html[] {
  const town = [a.postal_code, a.city].filter((x): x is string => Boolean(x)).map(own);
  const cityLine = html`${town.flatMap((x, i) => (i === 0 ? [x] : [' ', x]))}`;
  return [
    a.street ? own(a.street) : null,
    cityLine,
    a.region ? own(a.region) : null,
    a.country ? html`${a.country}` : null,
  ].filter((x): x is Html => x !== null);
}

/** `ends_at` is exclusive: the page names the last day the offer holds, so an end at midnight names the day before. */
const lastMomentBefore = (instant: string): string => new Date(Date.parse(instant) - 1).toISOString();
