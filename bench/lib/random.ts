// A small seeded generator (mulberry32), so that every run of the bench sends the same requests.
export type Random = () => number;

export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A whole number in [lo, hi]. */
export const intIn = (rand: Random, lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

export const pick = <T>(rand: Random, xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;

const ALPHANUMERIC = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'];
export const alphanumeric = (rand: Random, length: number) =>
  Array.from({ length }, () => pick(rand, ALPHANUMERIC)).join('');
