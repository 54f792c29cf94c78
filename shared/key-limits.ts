// A key's label, rate, burst and allowed origins as operators type them: one set of rules for the CLI's flags, the
// panel's forms and the panel's script, which checks a form before it is sent (so nothing here may need Node).
import { ANY_CONTROL, controlIn } from './control-characters.ts';
import { longerThan } from './text-length.ts';

/** A value an operator typed that breaks a rule; the server turns it into its own error class. */
export class KeyLimitError extends Error {
  override name = 'KeyLimitError';
}

export const MAX_LABEL_LENGTH = 200;
/**
 * Who a key is for, as typed: trimmed, at most MAX_LABEL_LENGTH characters (as a person counts them: an emoji is one),
 * one line without control characters.
 */
export function parseLabel(value: string): string {
  const label = value.trim();
  if (longerThan(label, MAX_LABEL_LENGTH)) throw new KeyLimitError(`must be at most ${MAX_LABEL_LENGTH} characters`);
  // Printed raw in terminals (`keys list`) and pages, one line each: C1 controls are refused too.
  const control = controlIn(label, ANY_CONTROL);
  if (control) throw new KeyLimitError(`must be one line without control characters (${control})`);
  return label;
}

/** The largest burst a key may have. */
export const MAX_BURST = 1_000_000;
/** A key with a rate and no burst of its own may send this many seconds of its rate at once. */
export const BURST_SECONDS = 5;
/** The largest rate: the one whose burst of BURST_SECONDS is MAX_BURST. */
export const MAX_RATE_PER_S = MAX_BURST / BURST_SECONDS;

/** `20/s`, `600/min` -> requests per second, more than 0 and at most MAX_RATE_PER_S. */
export function parseRate(value: string): number {
  const m = /^(\d+(?:\.\d+)?)\/(s|sec|m|min|h|hour)$/.exec(value.trim());
  if (!m) throw new KeyLimitError('expected a rate such as 20/s, 600/min or 1000/h');
  const per = { s: 1, sec: 1, m: 60, min: 60, h: 3600, hour: 3600 }[m[2] as 's'];
  const rate = Number(m[1]) / per;
  if (rate <= 0) throw new KeyLimitError('must be more than 0');
  if (rate > MAX_RATE_PER_S) throw new KeyLimitError(`must be at most ${MAX_RATE_PER_S}/s`);
  return rate;
}

/**
 * Requests per second -> `20/s`, `600/min` or `1000/h`: a whole number where a unit gives one, else the shortest
 * decimal that parseRate reads back to exactly this rate, so a form filled with it saves the rate unchanged.
 */
export function formatRate(perSecond: number): string {
  const exact = (text: string) => {
    try {
      return parseRate(text) === perSecond;
    } catch {
      return false;
    }
  };
  const texts = RATE_UNITS.flatMap(([unit, per]) => {
    const scaled = perSecond * per;
    for (let digits = 0; digits <= 20; digits++) {
      const text = `${scaled
        .toFixed(digits)
        .replace(/(\.\d*?)0+$/, '$1')
        .replace(/\.$/, '')}/${unit}`;
      if (exact(text)) return [text];
    }
    return [];
  });
  return texts.find((t) => !t.includes('.')) ?? texts.sort((a, b) => a.length - b.length)[0] ?? `${perSecond}/s`;
}

/** The units formatRate writes, in the order it prefers them. */
const RATE_UNITS = [
  ['s', 1],
  ['min', 60],
  ['h', 3600],
] as const;

/** Decimal digits only: Number() would also read `0x10` and `1e3`, which nobody types as "a whole number". */
export function parseBurst(value: string): number {
  const digits = value.trim();
  const n = /^\d+$/.test(digits) ? Number(digits) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_BURST)
    throw new KeyLimitError(`expected a whole number from 1 to ${MAX_BURST}`);
  return n;
}

/** A host a browser can name in an Origin: an IPv6 literal, or labels of letters, digits, "-" and "_" (IDNs as punycode). */
const ORIGIN_HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\.?)$/;

/**
 * One browser origin (scheme, host, optional port), normalised as browsers send it. The API matches origins exactly,
 * so a host with `*` (or another character no host has) would match no site: it is refused, not stored.
 */
export function parseOrigin(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    // not a URL at all: the same refusal as a URL with a path
  }
  if (url && /^https?:$/.test(url.protocol) && url.origin === value.replace(/\/$/, '')) {
    if (ORIGIN_HOST.test(url.hostname)) return url.origin;
    throw new KeyLimitError(
      `"${value}" is not an origin such as https://partner.example (origins are matched exactly: a host of letters, ` +
        'digits, "-" and "." only, no "*"; list each site)',
    );
  }
  throw new KeyLimitError(
    `"${value}" is not an origin such as https://partner.example (scheme, host and optional port only)`,
  );
}

/** A key's partner reference: what its rent links' clicks are counted under, unique within its facility. */
export const REF_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const REF_RULE = '1-40 of a-z, 0-9 and "-", starting with a letter or digit';

/** A ref as typed: trimmed, as a label is, then REF_PATTERN; the refusal names the value (at most 60 characters). */
export function parseRef(value: string): string {
  const ref = value.trim();
  if (!REF_PATTERN.test(ref)) throw new KeyLimitError(`"${ref.slice(0, 60)}" must be ${REF_RULE}`);
  return ref;
}

/** The fields of the panel's key form, as typed. */
export interface KeyFormFields {
  label: string;
  /** Empty: made from the label (a new key), or unchanged (an edit); absent: not asked. */
  ref?: string;
  /** One origin per line (or separated by commas or spaces); empty: any origin. */
  origins: string;
  /** Empty: the server's default rate. */
  rate: string;
  /** Empty: the burst the rate gives (5 seconds of it), or the server's default without a rate; absent: not asked. */
  burst?: string;
}

export type KeyFormField = keyof KeyFormFields;

export interface KeyFormLimits {
  label: string;
  /** Absent when the form left it empty. */
  ref?: string;
  allowed_origins: string[];
  rate_per_s: number | null;
  burst: number | null;
}

/** The form read by the rules: its limits, or each field's first problem. */
export type KeyFormResult =
  { ok: true; limits: KeyFormLimits } | { ok: false; problems: Partial<Record<KeyFormField, string>> };

/** The one reading of a key form: the panel's server applies it, the panel's script shows its problems per field. */
export function readKeyForm(fields: KeyFormFields): KeyFormResult {
  const problems: Partial<Record<KeyFormField, string>> = {};
  const check = <T>(field: KeyFormField, read: () => T): T | undefined => {
    try {
      return read();
    } catch (err) {
      if (!(err instanceof KeyLimitError)) throw err;
      problems[field] = err.message;
      return undefined;
    }
  };
  const label = check('label', () => parseLabel(fields.label));
  const origins = check('origins', () =>
    fields.origins
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(parseOrigin),
  );
  const typedRef = (fields.ref ?? '').trim();
  const ref = typedRef === '' ? '' : check('ref', () => parseRef(typedRef));
  const rate = fields.rate.trim();
  const ratePerS = rate === '' ? null : check('rate', () => parseRate(rate));
  const burst = (fields.burst ?? '').trim();
  const burstValue = burst === '' ? null : check('burst', () => parseBurst(burst));
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  const limits = { label: label!, allowed_origins: origins!, rate_per_s: ratePerS!, burst: burstValue! };
  return { ok: true, limits: ref === '' ? limits : { ...limits, ref: ref! } };
}
