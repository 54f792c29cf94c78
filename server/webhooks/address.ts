// Where a webhook may go: HTTPS URLs whose resolved addresses are public. The check runs in the socket's own DNS
// lookup, on the addresses it then connects to, so a name that re-resolves elsewhere (DNS rebinding) cannot slip by.
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import { ListingsError } from '../errors.ts';

/**
 * The IANA special-purpose ranges that are not public unicast. Node's BlockList rather than ipaddr.js: that is only a
 * dependency of proxy-addr here, at a version whose ranges miss 198.18/15, 64:ff9b:1::/48, ::/96 and 2001:2::/48.
 */
const SPECIAL_IPV4 = [
  ['0.0.0.0', 8], // this network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, with the cloud metadata address
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 3], // multicast, reserved, broadcast
] as const;

/**
 * Inside IPv6's global unicast 2000::/3, what is not public: everything outside it is refused too, which takes in
 * loopback, unique local (fc00::/7, fd00:ec2::254), link-local, multicast, discard, and the forms that embed an IPv4
 * address (mapped, compatible, NAT64 64:ff9b::/96 and 64:ff9b:1::/48): those reach whatever the IPv4 address is.
 */
const SPECIAL_IPV6 = [
  ['2001::', 23], // IETF protocol assignments: Teredo 2001::/32 (embeds IPv4), benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4 (embeds IPv4: 2002:7f00:1:: is 127.0.0.1)
  ['3fff::', 20], // documentation
] as const;

const special = new BlockList();
for (const [net, prefix] of SPECIAL_IPV4) special.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of SPECIAL_IPV6) special.addSubnet(net, prefix, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

/**
 * Loopback, private, link-local (cloud metadata: 169.254.169.254, fd00:ec2::254), shared, documentation, multicast or
 * reserved; or an IPv6 address that embeds an IPv4 one; or not an address.
 */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return special.check(address, 'ipv4');
  if (family === 6) return !globalUnicast.check(address, 'ipv6') || special.check(address, 'ipv6');
  return true;
}

const MAX_URL = 2048;

/**
 * An endpoint URL: HTTPS, no credentials in it, and (unless allowed) not a literal private address or localhost. Its
 * length is the stored and sent form's (percent-encoded: "ł" is 6 characters there); the typed text is held to it too,
 * before it is parsed.
 */
export function checkEndpointUrl(text: string, allowPrivate: boolean): string {
  const fail = (rule: string) => new ListingsError('invalid_url', `--url: ${rule}`);
  const tooLong = () => fail(`at most ${MAX_URL} characters once percent-encoded ("ł" is 6: %C5%82)`);
  if (text.length > MAX_URL) throw tooLong();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail('must be an absolute https:// URL');
  }
  if (url.href.length > MAX_URL) throw tooLong();
  if (url.protocol !== 'https:') throw fail('must be an https:// URL');
  if (url.username || url.password) throw fail('must not hold a user name or password');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) && isPrivateAddress(host))))
    throw fail('must not point at a loopback, private or link-local address (see WEBHOOKS_ALLOW_PRIVATE)');
  return url.href;
}

/** A DNS lookup for the socket that refuses private addresses, unless allowed. */
export function safeLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '', 0);
      const list = addresses as unknown as { address: string; family: number }[];
      const usable = allowPrivate ? list : list.filter((a) => !isPrivateAddress(a.address));
      if (usable.length === 0) {
        const refused = Object.assign(new Error(`${hostname} resolves only to private addresses`), {
          code: 'EPRIVATEADDRESS',
        });
        return callback(refused, '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: typeof usable) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}
