// The address a client is counted by: its IPv4 address, or the /64 network of its IPv6 one. Rate limits, login limits
// and a day's unique visitors all count this way, so no one counts as many by rotating through their own network.
import ipaddr from 'ipaddr.js';

/**
 * The address a limit counts a client by: an IPv4 address as it is (an IPv4-mapped IPv6 one, in either spelling, as
 * its IPv4), an IPv6 address by its /64, the smallest network a subscriber is given, so that one home or host cannot
 * rotate through its 2^64 addresses to get a fresh count each time. Text that is no address stays as it is.
 */
export function addressGroupOf(address: string): string {
  if (!address.includes(':')) return address;
  const plain = address.split('%')[0]!;
  if (!ipaddr.IPv6.isValid(plain)) return address;
  const v6 = ipaddr.IPv6.parse(plain);
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().toString();
  return `${v6.parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
