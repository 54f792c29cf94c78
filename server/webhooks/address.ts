// Where a webhook may go: HTTPS URLs whose resolved addresses are public. The check runs in the socket's own DNS
// lookup, on the addresses it then connects to, so a name that re-resolves elsewhere (DNS rebinding) cannot slip by.
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import { ListingsError } from '../errors.ts';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 3],
] as const)
  blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 127],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  blocked.addSubnet(net, prefix, 'ipv6');

/** Loopback, private, link-local (cloud metadata: 169.254.169.254, fd00:ec2::254), multicast or reserved. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return isPrivateAddress(mapped[1]!);
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

const MAX_URL = 2048;

/** An endpoint URL: HTTPS, no credentials in it, and (unless allowed) not a literal private address or localhost. */
export function checkEndpointUrl(text: string, allowPrivate: boolean): string {
  const fail = (rule: string) => new ListingsError('invalid_url', `--url: ${rule}`);
  if (text.length > MAX_URL) throw fail(`at most ${MAX_URL} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw fail('must be an absolute https:// URL');
  }
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
