// The fuzz tests' oracle: what no answer to any request may do (a 5xx, another facility's data, an error that is not
// problem+json, a missing nosniff, a key echoed back), and the property that sends generated requests and checks each.
import fc from 'fast-check';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Detail, ListResponse } from '../../shared/listing.ts';
import type { GeneratedFacility } from './data.ts';
import { A, API, B, INACTIVE, type FuzzKeys } from './fuzz-world.ts';
import { bytesOf, requestArbitrary, type Req } from './fuzz-requests.ts';
import { problemFault } from './problem.ts';
import { headerOf, rawRequest, type RawReply } from './raw-http.ts';

/** The facility whose data this request may see: only that of a valid key, sent once (spaces around a field value are not part of it, RFC 9110 5.5). */
function facilityOf(keys: FuzzKeys, r: Req): GeneratedFacility | undefined {
  const sentKeys = r.headers.filter(([n]) => n.toLowerCase() === 'x-api-key').map(([, v]) => v.trim());
  if (sentKeys.length !== 1) return undefined;
  if (sentKeys[0] === keys.a || sentKeys[0] === keys.restrictedA) return A;
  if (sentKeys[0] === keys.b) return B;
  return undefined;
}

/** The path a server reads from a request target: an absolute-form one (RFC 9112 3.2.2) by its path, any query cut. */
function pathOf(target: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  const rest = authority ? target.slice(authority[0].length) : target;
  return (authority && !rest.startsWith('/') ? `/${rest}` : rest).split('?')[0]!;
}

const HTML = 'text/html; charset=utf-8';
const KNOWN_TYPES = new Set([
  HTML,
  'application/json; charset=utf-8',
  'text/javascript; charset=utf-8',
  'text/css; charset=utf-8',
  'image/svg+xml',
  'image/png',
  'text/plain; charset=utf-8',
  'application/octet-stream',
]);

/** Every way this answer breaks the rules, or an empty list. */
function faultsOf(keys: FuzzKeys, r: Req, reply: RawReply, allowRateLimit: boolean): string[] {
  const out: string[] = [];
  const type = headerOf(reply, 'content-type');
  // Answers to `Accept-Encoding: gzip, br` are compressed: every check below reads the decoded bytes.
  const coding = headerOf(reply, 'content-encoding');
  const bytes =
    reply.body.length === 0
      ? reply.body
      : coding === 'br'
        ? brotliDecompressSync(reply.body)
        : coding === 'gzip'
          ? gunzipSync(reply.body)
          : reply.body;
  const body = bytes.toString('utf8');
  const path = pathOf(r.target);
  const isHead = r.method === 'HEAD';
  if (reply.status >= 500) out.push(`status ${reply.status}`);
  if (reply.status === 429 && !allowRateLimit) out.push('429 with limits raised');
  if (headerOf(reply, 'x-content-type-options') !== 'nosniff') out.push('no nosniff');
  if (headerOf(reply, 'server') !== undefined || headerOf(reply, 'x-powered-by') !== undefined)
    out.push('version banner');

  if (reply.status >= 400) {
    // The rental pages are for people: their 404 is an HTML page, not problem+json.
    const rentalPage404 = reply.status === 404 && type === HTML && path.startsWith('/rent/');
    if (!rentalPage404) {
      const fault = isHead
        ? type === 'application/problem+json'
          ? undefined
          : `HEAD error content-type ${type}`
        : problemFault(reply.status, type, body);
      if (fault) out.push(fault);
    }
  } else if (reply.status === 200 && !isHead) {
    if (!type || !KNOWN_TYPES.has(type)) out.push(`content-type ${type}`);
    if (path === API || path.startsWith(`${API}/`)) {
      const allowed = facilityOf(keys, r);
      if (!allowed) out.push('API 200 without a valid key');
      if (type !== 'application/json; charset=utf-8') out.push(`API content-type ${type}`);
      try {
        const value = JSON.parse(body);
        const list = ListResponse.safeParse(value);
        const detail = Detail.safeParse(value);
        if (!list.success && !detail.success) out.push('API 200 body is neither a list nor a detail');
        if (list.success && list.data.facility.id !== allowed?.id)
          out.push(`list of ${list.data.facility.id} for ${allowed?.id}`);
        if (detail.success && !allowed?.ids.includes(detail.data.id))
          out.push(`detail ${detail.data.id} for ${allowed?.id}`);
      } catch {
        out.push('API 200 body is not JSON');
      }
    }
  }

  // No facility's listings for anyone but its own key; the rental pages are public by design, inactive listings are not.
  const mine = facilityOf(keys, r);
  const text = bytes.toString('latin1') + body;
  if (text.includes(INACTIVE)) out.push('an inactive listing is shown');
  for (const f of [A, B]) {
    if (f === mine || path.startsWith('/rent/')) continue;
    if (text.includes(f.marker) || f.ids.some((id) => text.includes(id)))
      out.push(`${f.id}'s data in an answer for ${mine?.id ?? 'no valid key'}`);
  }
  if (echoesAKey(keys, text)) out.push('a key is echoed in the body');
  return out;
}

/** Does the body hold the secret part of any of our keys? (A key never appears in an error body.) */
function echoesAKey(keys: FuzzKeys, text: string): boolean {
  return Object.values(keys).some((k) => text.includes(k.slice(-32)));
}

/**
 * The oracle over the world's keys: `faults` of one answer, `property` sending generated requests to a port and failing
 * on the first answer with a fault, and `sent`, the requests it has sent so far.
 */
export function fuzzOracle(keys: FuzzKeys) {
  const oracle = {
    sent: 0,
    requestArbitrary: () => requestArbitrary(keys),
    faults: (r: Req, reply: RawReply, allowRateLimit: boolean) => faultsOf(keys, r, reply, allowRateLimit),
    property: (port: () => number, allowRateLimit: boolean) =>
      fc.asyncProperty(requestArbitrary(keys), async (r) => {
        const found = await exchange(port(), r, allowRateLimit);
        if (found.length > 0)
          throw new Error(
            `${found.join('; ')}\n  request: ${JSON.stringify(bytesOf(r).toString('latin1').slice(0, 600))}`,
          );
      }),
  };
  async function exchange(port: number, r: Req, allowRateLimit: boolean): Promise<string[]> {
    oracle.sent++;
    let reply: RawReply;
    try {
      reply = await rawRequest(port, bytesOf(r), { timeoutMs: 15_000 });
    } catch (err) {
      return [`no answer: ${(err as Error).message}`];
    }
    return faultsOf(keys, r, reply, allowRateLimit);
  }
  return oracle;
}
