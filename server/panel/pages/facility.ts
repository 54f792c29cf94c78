// The facility view's frame (its tabs) and what it shows of the facility itself: address and hours.
import { html, type Html } from '../../http/pages/html.ts';
import { DAYS, type FacilityInfo, type Hours } from '../../../shared/rental-data.ts';
import type { Messages, Texts } from '../i18n/i18n.ts';

export const TABS = [
  ['listings', 'tabListings'],
  ['api', 'tabApi'],
  ['snapshots', 'tabSnapshots'],
  ['embed', 'tabEmbed'],
] as const satisfies readonly (readonly [string, keyof Messages])[];
export type Tab = (typeof TABS)[number][0];

export function facilityPath(id: string, tab: Tab = 'listings'): string {
  const base = `/facilities/${encodeURIComponent(id)}`;
  return tab === 'listings' ? base : `${base}/${tab}`;
}

export function tabbed({ t }: Texts, facilityId: string, current: Tab, body: Html): Html {
  return html`<nav aria-label="${t.navFacility}" class="tabs"><ul>${TABS.map(
    ([tab, label]) =>
      html`<li><a href="${facilityPath(facilityId, tab)}"${tab === current ? html` aria-current="page"` : ''}>${t[label]}</a></li>`,
  )}</ul></nav>
<section aria-labelledby="tab-title">
<h2 id="tab-title">${t[TABS.find(([tab]) => tab === current)![1]]}</h2>
${body}
</section>`;
}

const MONDAY = Date.UTC(2024, 0, 1);

/** Day names in the page's language, Monday first, from Intl (2024-01-01 is a Monday). */
function dayNames(lang: string): string[] {
  const format = new Intl.DateTimeFormat(lang, { weekday: 'long', timeZone: 'UTC' });
  return DAYS.map((_, i) => format.format(new Date(MONDAY + i * 86_400_000)));
}

function hoursTable(tx: Texts, caption: string, hours: Hours): Html {
  const names = dayNames(tx.lang);
  return html`<table><caption>${caption}</caption><tbody>${DAYS.map(
    (day, i) =>
      html`<tr><th scope="row" class="day">${names[i]}</th><td>${hours[day].length ? hours[day].join(', ') : tx.t.closed}</td></tr>`,
  )}</tbody></table>`;
}

/** The facility as partners' answers describe it: its address and time zone, office and access hours, where given. */
export function facilityInfoBody(tx: Texts, info: FacilityInfo): Html {
  const { t } = tx;
  const a = info.address;
  const address = a
    ? [a.street, [a.postal_code, a.city].filter(Boolean).join(' '), a.region, a.country].filter(Boolean).join(', ')
    : t.notGiven;
  return html`<div class="info">
<dl class="facts">
<dt>${t.address}</dt><dd>${address}</dd>
<dt>${t.timezone}</dt><dd>${info.timezone ?? t.notGiven}</dd>
${info.office_hours ? '' : html`<dt>${t.officeHours}</dt><dd>${t.notGiven}</dd>`}
${info.access_hours ? '' : html`<dt>${t.accessHours}</dt><dd>${t.notGiven}</dd>`}
</dl>
${info.office_hours ? hoursTable(tx, t.officeHours, info.office_hours) : ''}
${info.access_hours ? hoursTable(tx, t.accessHours, info.access_hours) : ''}
</div>`;
}
