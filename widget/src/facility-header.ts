// The opt-in facility header (`show-facility`): the address with a plain link to OpenStreetMap (no map script or tile is
// loaded), today's office and access hours with "open now" in the facility's time zone, and the amenities.
import { html, nothing, type TemplateResult } from 'lit';
import { hasFacilityHeader } from '../../shared/embed-reserve.ts';
import type { Hours } from '../../shared/listing.ts';
import type { View } from './cards.ts';
import { hoursAt, nextHoursChange } from './hours.ts';
import type { Facility } from './listing.ts';

/** The facility on openstreetmap.org, marked and zoomed to its street. */
export const mapUrl = ({ lat, lng }: { lat: number; lng: number }): string =>
  `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=17/${lat}/${lng}`;

/** "Open now 09:00–18:00": whether it is open, and the day's hours (none: closed all day). */
function hoursRow(label: string, hours: Hours | null | undefined, timeZone: string, v: View, now: number) {
  if (!hours) return nothing;
  const { open, ranges } = hoursAt(hours, timeZone, now);
  // prettier-ignore
  return html`<div><dt>${label}</dt><dd><span class="now ${open ? 'open' : 'shut'}">${v.t(open ? 'openNow' : 'closedNow')}</span> ${ranges.join(', ')}</dd></div>`;
}

/** A line of the address the operator wrote, as a bidi isolate: a direction control in it turns that line alone. */
const own = (line: string | null | undefined) => (line ? html`<bdi>${line}</bdi>` : nothing);

/** "ul. Legnicka 12, 53-674 Wrocław, Dolny Śląsk": street, postal code and city, region, each isolated. */
function addressLine(a: NonNullable<Facility['address']>): TemplateResult {
  // prettier-ignore
  return html`${own(a.street)}${a.street ? ', ' : ''}${own(a.postal_code)}${a.postal_code ? ' ' : ''}${own(a.city)}${a.region ? html`, ${own(a.region)}` : ''}`;
}

function header(f: Facility, v: View, now: number): TemplateResult {
  const { address: a, geo, timezone, office_hours, access_hours, amenities } = f;
  // prettier-ignore
  return html`<div part="facility" class="notice facility">
    <p class="facility-name">${f.name}</p>
    <p>${a ? addressLine(a) : nothing} ${geo ? html`<a href=${mapUrl(geo)} target=${v.target || nothing} rel=${v.rel || nothing}>${v.t('map')}<span class="sr-only"> (OpenStreetMap)${v.newTab}</span></a>` : nothing}</p>
    ${timezone ? html`<dl class="hours">${hoursRow(v.t('officeHours'), office_hours, timezone, v, now)}${hoursRow(v.t('accessHours'), access_hours, timezone, v, now)}</dl>` : nothing}
    ${amenities?.length ? html`<ul class="amenities">${amenities.map((x) => html`<li>${v.t.word('amenityNames', x)}</li>`)}</ul>` : nothing}
  </div>`;
}

/** The header, or nothing for a facility the answer gives no address, hours or amenities of, or gives them malformed. */
export function facilityHeader(facility: Facility | undefined, v: View, now: number): TemplateResult | typeof nothing {
  if (!facility || !hasFacilityHeader(facility)) return nothing;
  try {
    return header(facility, v, now);
  } catch {
    // a field not shaped as the contract says (or a time zone this browser lacks): no header rather than no widget
    return nothing;
  }
}

/** When the header's "open now" next changes (its hours open, close or a day ends); undefined: it never does. */
export function headerChangesAt(facility: Facility | undefined, now: number): number | undefined {
  const hours = [facility?.office_hours, facility?.access_hours].filter((h): h is Hours => !!h);
  if (!facility?.timezone || !hours.length) return undefined;
  try {
    return nextHoursChange(hours, facility.timezone, now);
  } catch {
    return undefined; // hours not shaped as the contract says, or a time zone this browser lacks: no header either
  }
}
