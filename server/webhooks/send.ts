// One webhook POST: HTTPS to a public address (checked where the socket connects), no redirects followed, and the
// answer's status line and headers within 15 seconds; its body is not read. node:https rather than fetch: its `lookup`
// option is where the address check must sit, and fetch offers it only through undici's own Agent.
import { request, type RequestOptions } from 'node:https';
import { isIP } from 'node:net';
import { createSecureContext, type SecureContext } from 'node:tls';
import { isPrivateAddress, safeLookup } from './address.ts';

const SEND_TIMEOUT_MS = 15_000;

export interface SendOptions {
  allowPrivate: boolean;
  /** Certificates (PEM) trusted instead of Node's own (NODE_EXTRA_CA_CERTS adds to those): a test receiver's CA. */
  ca?: string;
  timeoutMs?: number;
}

/**
 * One TLS context per trusted set, made at its first delivery: making one loads every root certificate (0.2 ms alone,
 * about 0.6 ms in a server under load), which a context per delivery paid each time. Keyed by the configured `ca`
 * only, so it holds one or two entries.
 */
const contexts = new Map<string, SecureContext>();
function contextFor(ca: string | undefined): SecureContext {
  let context = contexts.get(ca ?? '');
  if (!context) contexts.set(ca ?? '', (context = createSecureContext(ca ? { ca } : {})));
  return context;
}

/** The answer's status, or the reason none came (`code` null). */
export interface SendResult {
  code: number | null;
  error: string | null;
}

export function send(
  url: string,
  headers: Record<string, string>,
  body: string,
  opts: SendOptions,
): Promise<SendResult> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // A literal address skips the lookup: it is checked here instead.
  if (target.protocol !== 'https:') return Promise.resolve({ code: null, error: 'not an https:// URL' });
  if (isIP(host) && !opts.allowPrivate && isPrivateAddress(host))
    return Promise.resolve({ code: null, error: `${host} is a private address` });
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: SendResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.destroy();
      resolve(r);
    };
    // tls.connect takes `secureContext` from the request's options; @types/node leaves it out of https' options.
    const tls = { secureContext: contextFor(opts.ca) } as RequestOptions;
    const req = request(target, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'storage-listings-webhooks' },
      lookup: safeLookup(opts.allowPrivate),
      ...tls,
      agent: false,
    });
    const limit = opts.timeoutMs ?? SEND_TIMEOUT_MS;
    const timer = setTimeout(() => finish({ code: null, error: `no answer within ${limit / 1000} s` }), limit);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ code: null, error: err.code ?? err.message }));
    // The status decides: a body that comes slowly (or never ends) holds neither the send's slot nor its outcome.
    req.on('response', (res) => finish({ code: res.statusCode ?? null, error: null }));
    req.end(body);
  });
}
