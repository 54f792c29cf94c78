// The client's address: the socket's peer, or, behind trusted proxies (TRUST_PROXY), the nearest X-Forwarded-For
// hop that none of them is, as proxy-addr walks the list from the right.
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { LRUCache } from 'lru-cache';
import proxyaddr from 'proxy-addr';
import { memoBy } from '../memo.ts';

/** Whether an address is a trusted proxy's: TRUST_PROXY's list compiled once. */
export type TrustedProxies = (address: string, hop: number) => boolean;

/** The one line a bad TRUST_PROXY entry gives, naming it. */
const entryProblem = (entry: string) =>
  `"${entry}" is not an IP address, a CIDR range or one of loopback, linklocal, uniquelocal ` +
  '(a comma-separated list of the proxies in front)';

/**
 * Parses `TRUST_PROXY`: comma-separated IP addresses, CIDR ranges (10.0.0.0/8, fd00::/8) and proxy-addr's names
 * loopback, linklocal and uniquelocal; an error names the first bad entry.
 */
export function parseTrustedProxies(text: string | undefined): string[] {
  if (text === undefined || text.trim() === '') return [];
  const list = text.split(',').map((entry) => entry.trim());
  for (const entry of list) {
    try {
      proxyaddr.compile(entry);
    } catch {
      throw new Error(entryProblem(entry));
    }
  }
  return list;
}

/** Compiles a parsed list once, at start; an empty list trusts nobody. */
export const trustedProxiesOf = (list: readonly string[] = []): TrustedProxies =>
  list.length === 0 ? () => false : proxyaddr.compile([...list]);

/**
 * Entries left of the nearest untrusted hop were written by the client itself and are never believed. A hop that is
 * not an IP address (a malformed list) gives the peer, the one address known for sure.
 */
export function clientAddressOf(
  req: { socket: { remoteAddress?: string }; headers: IncomingMessage['headers'] },
  trusted: TrustedProxies,
): string {
  const peer = req.socket.remoteAddress ?? '';
  // Most requests come straight from their client: the header is not even read.
  if (!trusted(peer, 0)) return peer;
  const address = proxyaddr(req as IncomingMessage, trusted);
  return isIP(address) === 0 ? peer : address;
}

type ForwardedRequest = Parameters<typeof clientAddressOf>[0];

/** Peer and X-Forwarded-For pairs remembered, and the longest header remembered (a proxy's hop or two). */
const MAX_KNOWN_CLIENTS = 10_000;
const MAX_KNOWN_FORWARDED = 256;

/**
 * clientAddressOf with the answers remembered by peer and header: proxy-addr parses every hop with ipaddr.js (about
 * 2 µs a request), and a proxy forwards the same clients again and again. A longer header is worked out each time.
 */
export class ClientAddresses {
  private readonly known: LRUCache<string, string, ForwardedRequest>;

  constructor(private readonly trusted: TrustedProxies) {
    this.known = memoBy(MAX_KNOWN_CLIENTS, (_key, req: ForwardedRequest) => clientAddressOf(req, trusted));
  }

  of(req: ForwardedRequest): string {
    const forwarded = req.headers['x-forwarded-for'] ?? '';
    if (typeof forwarded !== 'string' || forwarded.length > MAX_KNOWN_FORWARDED)
      return clientAddressOf(req, this.trusted);
    return this.known.memo(`${req.socket.remoteAddress ?? ''} ${forwarded}`, { context: req });
  }
}
