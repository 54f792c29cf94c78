// The client's address: the socket's peer, or, behind a trusted proxy, the nearest X-Forwarded-For hop it did not add.
import { isIP } from 'node:net';

/** Parses `TRUST_PROXY`: comma-separated IP addresses of the proxies in front of this server; an error names the bad one. */
export function parseTrustedProxies(text: string | undefined): string[] {
  if (text === undefined || text.trim() === '') return [];
  const list = text.split(',').map((a) => a.trim());
  const bad = list.find((a) => isIP(a) === 0);
  if (bad !== undefined) throw new Error(`"${bad}" is not an IP address (a comma-separated list of proxy addresses)`);
  return list;
}

/**
 * Walks X-Forwarded-For from the right (the hop our proxy added last) past every trusted proxy: entries further left
 * were written by the client itself and could be anything, so they are never believed.
 */
export function clientAddressOf(
  peer: string,
  forwardedFor: string | string[] | undefined,
  trusted: ReadonlySet<string>,
): string {
  if (trusted.size === 0 || !trusted.has(peer) || forwardedFor === undefined) return peer;
  // One hop, as most proxies send: no list to split.
  if (typeof forwardedFor === 'string' && !forwardedFor.includes(',')) {
    const hop = forwardedFor.trim();
    return hop === '' || isIP(hop) === 0 || trusted.has(hop) ? peer : hop;
  }
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!.trim();
    if (hop === '' || isIP(hop) === 0) return peer; // a malformed list: fall back to the one address we know
    if (!trusted.has(hop)) return hop;
  }
  return peer;
}
