// Partner attribution as pure rules: the click URL's target with its parameters, and which clicks count.
import { createHash } from 'node:crypto';
import { isbot } from 'isbot';
import { addressGroupOf } from './address-group.ts';

export const GO_PREFIX = '/go/';
export const UTM_CAMPAIGN = 'storage-listings';

/**
 * The listing's rent target with the partner's parameters appended; the target's own query stays byte for byte (a
 * signed URL, `+` or `,` read literally), and a parameter it already sets is not added again.
 */
export function referralUrl(target: string, ref: string): string {
  const url = new URL(target);
  const add = { ref, utm_source: ref, utm_medium: 'referral', utm_campaign: UTM_CAMPAIGN };
  const added = Object.entries(add)
    .filter(([name]) => !url.searchParams.has(name))
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`);
  if (added.length === 0) return url.href;
  const query = url.search === '' || url.search === '?' ? '' : `${url.search.slice(1)}&`;
  url.search = `?${query}${added.join('&')}`;
  return url.href;
}

/** The click URL a partner's rent link goes through (the widget and comparison sites build the same). */
export function clickUrl(publicUrl: string, facilityId: string, code: string, ref: string): string {
  const path = `${GO_PREFIX}${encodeURIComponent(facilityId)}/${encodeURIComponent(code)}`;
  return `${publicUrl.replace(/\/$/, '')}${path}?ref=${encodeURIComponent(ref)}`;
}

/**
 * A client that says it is a robot (crawlers, link previews, archivers, monitors, HTTP libraries, headless browsers):
 * followed, never counted. isbot keeps the list of known agents; a client that sends no User-Agent is no browser.
 */
export const declaresBot = (userAgent: string | undefined): boolean =>
  userAgent === undefined || userAgent === '' || isbot(userAgent);

/** A browser's speculative load (`Sec-Purpose: prefetch`, or the older `Purpose: prefetch`): not a click. */
export const isPrefetch = (secPurpose: string | undefined, purpose: string | undefined): boolean =>
  /prefetch|prerender/i.test(`${secPurpose ?? ''} ${purpose ?? ''}`);

/** A visitor of one day: a salted hash of address and User-Agent; the salt is the day's, held in memory only. */
export const visitorOf = (salt: Buffer, address: string, userAgent: string): string =>
  createHash('sha256')
    .update(salt)
    .update(addressGroupOf(address))
    .update('\0')
    .update(userAgent)
    .digest('base64url')
    .slice(0, 22);

/** The UTC day of an instant, as the counts are kept (YYYY-MM-DD). */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
