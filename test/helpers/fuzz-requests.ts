// Generated HTTP requests for the fuzz tests, as they go on the wire: the request line, keys in every state a partner or
// an attacker might send, query strings, odd headers and bodies.
import fc from 'fast-check';
import { method, printable, requestPath, tokenChars } from './fuzz-request-line.ts';
import { ALLOWED_ORIGIN, API, type FuzzKeys } from './fuzz-world.ts';

export interface Req {
  method: string;
  target: string;
  version: '1.1' | '1.0';
  headers: [string, string][];
  body: string;
}

const alnum = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');

const extraHeader = fc.oneof(
  fc.tuple(fc.constant('If-None-Match'), fc.oneof(fc.constantFrom('*', 'W/"x"', '"x", W/"y"', ''), printable)),
  fc.tuple(
    fc.constant('Accept'),
    fc.constantFrom('*/*', 'application/json', 'text/html', 'application/problem+json', 'image/*;q=0.1'),
  ),
  fc.tuple(fc.constant('Accept-Encoding'), fc.constantFrom('gzip, br', 'identity', '*')),
  fc.tuple(fc.constant('Range'), fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=9999999-')),
  fc.tuple(fc.constant('Expect'), fc.constantFrom('100-continue', 'teapot')),
  fc.tuple(fc.constant('Upgrade'), fc.constantFrom('websocket', 'h2c')),
  fc.tuple(fc.constant('Connection'), fc.constantFrom('keep-alive', 'Upgrade', 'close, x-api-key')),
  fc.tuple(fc.constant('X-Forwarded-For'), fc.constantFrom('1.2.3.4', '127.0.0.1, 10.0.0.1', 'garbage')),
  fc.tuple(fc.constant('Host'), fc.constantFrom('evil.example', '', 'a b', '127.0.0.1:1')),
  fc.tuple(fc.constant('Transfer-Encoding'), fc.constantFrom('chunked', 'gzip', 'chunked, identity')),
  fc.tuple(fc.constant('Content-Length'), fc.constantFrom('0', '5', '-1', 'abc', '99999999999999999999')),
  fc.tuple(tokenChars, printable),
  fc.tuple(tokenChars, fc.string({ unit: 'binary', maxLength: 10 })),
);

/** Requests with the world's keys (issued by beforeAll, so this is built in a test). */
export function requestArbitrary(keys: FuzzKeys): fc.Arbitrary<Req> {
  /** Keys in every state a partner or an attacker might send. */
  const keyChoice: fc.Arbitrary<string[]> = fc.oneof(
    { weight: 4, arbitrary: fc.constant<string[]>([]) },
    { weight: 8, arbitrary: fc.constant<string[]>([keys.a]) },
    { weight: 6, arbitrary: fc.constant<string[]>([keys.b]) },
    { weight: 2, arbitrary: fc.constant<string[]>([keys.revokedA]) },
    { weight: 3, arbitrary: fc.constant<string[]>([keys.restrictedA]) },
    { weight: 1, arbitrary: fc.constant<string[]>([keys.a, keys.b]) },
    { weight: 2, arbitrary: fc.string({ unit: alnum, minLength: 32, maxLength: 32 }).map((s) => [`svc_live_${s}`]) },
    { weight: 2, arbitrary: printable.map((s) => [s]) },
    {
      weight: 2,
      arbitrary: fc
        .constantFrom(
          (k: string) => k.slice(0, -1),
          (k: string) => `${k}x`,
          (k: string) => ` ${k} `,
          (k: string) => k.toUpperCase(),
          (k: string) => k.replace('svc_live_', 'svc_test_'),
          (k: string) => `Bearer ${k}`,
          (k: string) => k.slice(9),
        )
        .map((f) => [f(keys.a)]),
    },
    { weight: 1, arbitrary: fc.constant<string[]>(['']) },
  );

  const query = fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    {
      weight: 4,
      arbitrary: fc
        .array(
          fc.tuple(
            fc.constantFrom('available', 'min_area', 'max_area', 'sort', 'Sort', 'min_area[]', 'api_key', 'x', ''),
            fc.oneof(
              fc.constantFrom(
                'true',
                'false',
                'price',
                '-price',
                'area',
                '-area',
                'code',
                '7.5',
                '0',
                '100000',
                '-1',
                '1e3',
                'NaN',
                '',
                '%ZZ',
                '%00',
                '10000000',
              ),
              fc.constant(keys.a),
              printable.map(encodeURIComponent),
            ),
          ),
          { maxLength: 4 },
        )
        .map((pairs) => `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`),
    },
    { weight: 1, arbitrary: fc.webQueryParameters().map((q) => `?${q}`) },
    { weight: 1, arbitrary: printable.map((q) => `?${q.replace(/ /g, '+')}`) },
    { weight: 1, arbitrary: fc.constant(`?q=${'q'.repeat(3000)}`) },
  );

  return fc
    .record({
      method,
      path: requestPath,
      keyInPath: fc.oneof({ weight: 30, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      query,
      key: keyChoice,
      origin: fc.oneof(
        { weight: 3, arbitrary: fc.constant<string[]>([]) },
        {
          weight: 2,
          arbitrary: fc.constantFrom<string[]>(
            [ALLOWED_ORIGIN],
            ['https://evil.example'],
            ['null'],
            ['HTTPS://ALPHA.EXAMPLE'],
            [`${ALLOWED_ORIGIN}, https://evil.example`],
            [''],
            [ALLOWED_ORIGIN, 'https://evil.example'],
          ),
        },
      ),
      headers: fc.array(extraHeader, { maxLength: 4 }),
      noHost: fc.oneof({ weight: 20, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      version: fc.oneof(
        { weight: 10, arbitrary: fc.constant('1.1' as const) },
        { weight: 1, arbitrary: fc.constant('1.0' as const) },
      ),
      body: fc.oneof({ weight: 8, arbitrary: fc.constant('') }, { weight: 1, arbitrary: printable }),
    })
    .map((r) => {
      // A partner who pastes the key into the URL by mistake: the server must still never log it.
      const target = (r.keyInPath ? `${API}/${keys.a}` : r.path) + r.query;
      const headers: [string, string][] = [
        ...(r.noHost ? [] : [['Host', '127.0.0.1'] as [string, string]]),
        ...r.key.map((k) => ['X-API-Key', k] as [string, string]),
        ...r.origin.map((o) => ['Origin', o] as [string, string]),
        ...r.headers,
      ];
      if (r.body && !headers.some(([n]) => /^(content-length|transfer-encoding)$/i.test(n)))
        headers.push(['Content-Length', String(Buffer.byteLength(r.body))]);
      headers.push(['Connection', 'close']);
      return { method: r.method, target, version: r.version, headers, body: r.body };
    });
}

/** The request's bytes: the target as UTF-8, the rest as Latin-1, exactly as generated. */
export function bytesOf(r: Req): Buffer {
  const head = `${r.headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`;
  return Buffer.concat([
    Buffer.from(`${r.method} `, 'latin1'),
    Buffer.from(r.target, 'utf8'),
    Buffer.from(` HTTP/${r.version}\r\n`, 'latin1'),
    Buffer.from(head, 'latin1'),
    Buffer.from(r.body, 'latin1'),
  ]);
}
