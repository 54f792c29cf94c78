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
  const list = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
  // Hop by hop from the right, cut out of the text (no array per request: most lists hold one hop).
  for (let end = list.length; end >= 0;) {
    const comma = end === 0 ? -1 : list.lastIndexOf(',', end - 1);
    const hop = list.slice(comma + 1, end).trim();
    if (hop === '' || isIP(hop) === 0) return peer; // a malformed list: fall back to the one address we know
    if (!trusted.has(hop)) return hop;
    end = comma;
  }
  return peer;
}
