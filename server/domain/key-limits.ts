// A key's rate, burst and allowed origins as operators type them: one parser for the CLI's flags and the panel's forms.
import { ListingsError } from '../errors.ts';

const invalid = (message: string) => new ListingsError('invalid_key_limit', message);

/** `20/s`, `600/min` -> requests per second. */
export function parseRate(value: string): number {
  const m = /^(\d+(?:\.\d+)?)\/(s|sec|m|min|h|hour)$/.exec(value.trim());
  if (!m) throw invalid('expected a rate such as 20/s, 600/min or 1000/h');
  const per = { s: 1, sec: 1, m: 60, min: 60, h: 3600, hour: 3600 }[m[2] as 's'];
  const rate = Number(m[1]) / per;
  if (rate <= 0) throw invalid('must be more than 0');
  return rate;
}

/** Requests per second -> `20/s`, `600/min` or `1000/h`: the shortest way parseRate reads back to the same rate. */
export function formatRate(perSecond: number): string {
  const whole = (n: number) => Math.abs(n - Math.round(n)) < 1e-9;
  if (whole(perSecond)) return `${Math.round(perSecond)}/s`;
  if (whole(perSecond * 60)) return `${Math.round(perSecond * 60)}/min`;
  if (whole(perSecond * 3600)) return `${Math.round(perSecond * 3600)}/h`;
  return `${Number(perSecond.toFixed(3))}/s`;
}

export function parseBurst(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw invalid('expected a whole number from 1 to 1000000');
  return n;
}

/** One browser origin (scheme, host, optional port), normalised as browsers send it. */
export function parseOrigin(value: string): string {
  try {
    const url = new URL(value);
    if (/^https?:$/.test(url.protocol) && url.origin === value.replace(/\/$/, '')) return url.origin;
  } catch {
    // not a URL at all: the same refusal as a URL with a path
  }
  throw invalid(`"${value}" is not an origin such as https://partner.example (scheme, host and optional port only)`);
}
