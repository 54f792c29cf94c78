// The address a client is counted by: its IPv4 address, or the /64 network of its IPv6 one. Rate limits, login limits
// and a day's unique visitors all count this way, so no one counts as many by rotating through their own network.

/**
 * The address a limit counts a client by: an IPv4 address as it is (an IPv4-mapped IPv6 one as its IPv4), an IPv6
 * address by its /64, the smallest network a subscriber is given, so that one home or host cannot rotate through its
 * 2^64 addresses to get a fresh count each time. Text that is no address stays as it is.
 */
export function addressGroupOf(address: string): string {
  const plain = address.split('%')[0]!.toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(plain);
  if (mapped) return mapped[1]!;
  if (!plain.includes(':')) return plain;
  const hextets = hextetsOf(plain);
  return hextets ? `${hextets.slice(0, 4).join(':')}::/64` : plain;
}

/** The eight groups of an IPv6 address, without leading zeros; undefined when it is not one. */
function hextetsOf(address: string): string[] | undefined {
  let text = address;
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return undefined;
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string | undefined) => (half ? half.split(':') : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const fill = 8 - head.length - tail.length;
  if (halves.length === 1 ? fill !== 0 : fill < 1) return undefined;
  const all = [...head, ...Array<string>(fill).fill('0'), ...tail];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return undefined;
  return all.map((g) => g.replace(/^0+(?=.)/, ''));
}
