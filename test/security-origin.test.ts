// Origin-restricted keys, over a real port: a browser request from another website is refused (403 origin_not_allowed)
// with CORS that lets that page read the refusal (its origin echoed, no data), data answers echo only allowed origins,
// requests without Origin (servers) are unaffected, and `keys update` holds from the next request; on a SQLite file and
// on a node on PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { listingIdOf } from '../server/domain/facility.ts';
import { cliAsync, issueKey } from './helpers/fixture.ts';
import { CORS_HEADERS } from '../server/http/transport/cors.ts';
import { BACKENDS, useDemoServer } from './helpers/setup.ts';
import { call, json, type Reply } from './helpers/http.ts';
import { problemFault } from './helpers/problem.ts';

const LIST = '/external/listings';
const DETAIL = `${LIST}/${listingIdOf('wro-1', 'M-07')}`;
const PARTNER = 'https://partner.example';
const SECOND = 'https://shop.partner.example:8443';

const varyOf = (r: Reply) => (r.headers['vary'] ?? '').split(',').map((v) => v.trim().toLowerCase());

function expectRefused(r: Reply, refused: string) {
  expect(r.status).toBe(403);
  expect(problemFault(403, r.headers['content-type'], r.text)).toBeUndefined();
  expect(json(r).code).toBe('origin_not_allowed');
  // CORS on every answer, errors included: the page that asked can read why (the widget shows the code to its owner),
  // and the answer holds nothing but the refusal.
  expect(r.headers['access-control-allow-origin']).toBe(refused);
  expect(varyOf(r)).toContain('origin');
  for (const name of ['allow-headers', 'allow-methods', 'max-age', 'expose-headers'] as const) {
    const field = `access-control-${name}` as const;
    expect(r.headers[field], field).toBe(CORS_HEADERS[field]);
  }
  expect(Object.keys(json(r)).sort()).toEqual(['code', 'detail', 'status', 'title', 'type']);
  expect(r.headers['etag']).toBeUndefined();
}

describe.each(BACKENDS)('on %s', (backend) => {
  let restricted: { key: string; id: string };
  let open: string;
  const demo = useDemoServer({ backend, prepare: (db) => void (open = issueKey(db, 'wro-1').key) });
  const env = () => ({ LISTINGS_DB: demo.location });

  beforeAll(async () => {
    // Made with the CLI, as an operator would.
    const r = await cliAsync(
      ['keys', 'create', '--facility', 'wro-1', '--allowed-origin', PARTNER, '--allowed-origin', SECOND, '--json'],
      { env: env() },
    );
    expect(r.status, r.stderr).toBe(0);
    restricted = { key: JSON.parse(r.stdout).key, id: JSON.parse(r.stdout).id };
  });
  const fromOrigin = (key: string, origin: string | undefined, path = LIST) =>
    call(demo.app.url, path, { key, headers: origin === undefined ? {} : { origin } });

  describe('an origin-restricted key', () => {
    it.each([PARTNER, SECOND])(
      'from an allowed origin (%s): 200, CORS echoes that origin, Vary includes Origin',
      async (origin) => {
        for (const path of [LIST, DETAIL]) {
          const r = await fromOrigin(restricted.key, origin, path);
          expect(r.status).toBe(200);
          expect(r.headers['access-control-allow-origin']).toBe(origin);
          expect(varyOf(r)).toContain('origin');
        }
      },
    );

    it.each([
      'https://evil.example',
      'http://partner.example', // another scheme is another origin
      'https://partner.example:444', // and so is another port
      'https://partner.example.evil.example', // a suffix is not the origin
      'https://evil.example/https://partner.example',
      'HTTPS://PARTNER.EXAMPLE', // browsers send origins lower-case; anything else is not one of ours
      'null', // sandboxed frames and file: pages
      `${PARTNER}, https://evil.example`,
    ])('from %s: 403 origin_not_allowed, on every route', async (origin) => {
      expectRefused(await fromOrigin(restricted.key, origin), origin);
      expectRefused(await fromOrigin(restricted.key, origin, DETAIL), origin);
      expectRefused(await fromOrigin(restricted.key, origin, `${LIST}/lst_unknown`), origin);
    });

    it('without Origin (a server calling the API): 200', async () => {
      const r = await fromOrigin(restricted.key, undefined);
      expect(r.status).toBe(200);
      expect(json(r).facility.id).toBe('wro-1');
      expect(varyOf(r)).toContain('origin');
    });

    it('a CORS preflight needs no key and is answered 204', async () => {
      const r = await call(demo.app.url, LIST, {
        method: 'OPTIONS',
        headers: { origin: 'https://evil.example', 'access-control-request-headers': 'x-api-key' },
      });
      expect(r.status).toBe(204);
    });
  });

  describe('a key without origin restriction', () => {
    it('is served to any origin with Access-Control-Allow-Origin: *', async () => {
      for (const origin of ['https://evil.example', PARTNER, undefined]) {
        const r = await fromOrigin(open, origin);
        expect(r.status).toBe(200);
        expect(r.headers['access-control-allow-origin']).toBe('*');
        expect(varyOf(r)).toContain('origin');
      }
    });
  });

  describe('keys update changes origins on the running server from the next request', () => {
    it('--allowed-origin replaces the list, --any-origin lifts it', async () => {
      const r = await cliAsync(['keys', 'create', '--facility', 'wro-1', '--allowed-origin', PARTNER, '--json'], {
        env: env(),
      });
      expect(r.status, r.stderr).toBe(0);
      const { key, id } = JSON.parse(r.stdout);
      const NEW = 'https://new-partner.example';
      expect((await fromOrigin(key, PARTNER)).status).toBe(200);
      expectRefused(await fromOrigin(key, NEW), NEW);

      const moved = await cliAsync(['keys', 'update', id, '--allowed-origin', NEW], { env: env() });
      expect(moved.status, moved.stderr).toBe(0);
      expectRefused(await fromOrigin(key, PARTNER), PARTNER);
      const now = await fromOrigin(key, NEW);
      expect(now.status).toBe(200);
      expect(now.headers['access-control-allow-origin']).toBe(NEW);

      const lifted = await cliAsync(['keys', 'update', id, '--any-origin'], { env: env() });
      expect(lifted.status, lifted.stderr).toBe(0);
      const any = await fromOrigin(key, 'https://evil.example');
      expect(any.status).toBe(200);
      expect(any.headers['access-control-allow-origin']).toBe('*');

      const again = await cliAsync(['keys', 'update', id, '--allowed-origin', PARTNER], { env: env() });
      expect(again.status, again.stderr).toBe(0);
      expectRefused(await fromOrigin(key, 'https://evil.example'), 'https://evil.example');
    });
  });
});
