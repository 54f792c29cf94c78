// Where a facility is and how it is reached: ISO 3166-1 countries, IANA time zones and E.164 phone numbers.
import { z } from 'zod';

/** ISO 3166-1 alpha-2, all 249 assigned codes (Intl.DisplayNames also names EU, XK, UK and the like, which are not). */
export const COUNTRIES: ReadonlySet<string> = new Set(
  (
    'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ ' +
    'CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
    'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO ' +
    'JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR ' +
    'MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO ' +
    'RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV ' +
    'TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'
  ).split(' '),
);

export const country = () =>
  z
    .string()
    .refine((c) => COUNTRIES.has(c), 'must be an ISO 3166-1 alpha-2 country code in capitals (PL, DE, CH, GB, ...)');

/** The name Intl resolves a time zone to, or undefined for a name it does not know. */
function resolvedZoneOf(name: string): string | undefined {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** IANA names as the platform knows them, aliases included (Europe/Kiev, UTC), but no bare offsets. */
export function isTimeZone(name: string): boolean {
  return /^[A-Za-z][A-Za-z0-9_+/-]{0,63}$/.test(name) && resolvedZoneOf(name) !== undefined;
}

/** Names spelt as IANA spells them: the platform's canonical names (UTC is resolved, though not listed, in Node 20). */
const IANA_SPELLINGS: ReadonlySet<string> = new Set(Intl.supportedValuesOf('timeZone'));

/**
 * IANA's spelling of a name that Intl knows but that is written in another case (`europe/warsaw`), else undefined.
 * Intl ignores case, but answers give the name as written and other platforms (Python's zoneinfo, a case-sensitive
 * file system) refuse it. An alias that resolves to another name (Etc/UTC to UTC, Europe/Kyiv to Europe/Kiev) is
 * accepted as written: Intl gives no list of aliases to check its case against, except on engines whose resolved name
 * is the alias itself, case-normalised, where the same comparison catches it.
 */
export function respeltZoneOf(name: string): string | undefined {
  if (IANA_SPELLINGS.has(name)) return undefined;
  const resolved = resolvedZoneOf(name);
  if (resolved === undefined || resolved === name) return undefined;
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : undefined;
}

export const timeZone = () =>
  z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone name (Europe/Warsaw, America/New_York, UTC)')
    .superRefine((name, ctx) => {
      const spelt = respeltZoneOf(name);
      if (spelt !== undefined) ctx.addIssue({ code: 'custom', message: `must be written as IANA spells it: ${spelt}` });
    });

/** What may stand between a phone number's digits as written: spaces, dots, hyphens, slashes and brackets. */
const SEPARATORS = /[ ()./-]/g;
const E164 = /^\+[1-9][0-9]{1,14}$/;

/** A national trunk prefix written in brackets after the country code, `+44 (0)20 …`: dialled only from inside. */
const TRUNK_ZERO = /\(\s*0\s*\)/g;

/**
 * The number in E.164 (`+48715550107`), from the number as the operator wrote it (`+48 71 555 01 07`, or
 * `+44 (0)20 7946 0000` with the trunk prefix that E.164 leaves out).
 */
export function e164Of(phone: string): string {
  return phone.replace(TRUNK_ZERO, '').replace(SEPARATORS, '');
}

export const phone = () =>
  z
    .string()
    .max(40)
    .refine(
      (p) => E164.test(e164Of(p)),
      'must be an E.164 phone number: "+", the country code and at most 15 digits in all (spaces, ".", "-", "/" and brackets may stand between them)',
    );
