// The route table: every path the server answers to GET is known to every method (405 with Allow, 204 to OPTIONS),
// and a path it does not serve is unknown to all of them.
import { describe, expect, it } from 'vitest';
import { listingIdOf } from '../server/domain/facility.ts';
import { issueKey } from './helpers/fixture.ts';
import { call, json, SITE_PAGES } from './helpers/http.ts';
import { useDemoHandler } from './helpers/setup.ts';

let key: string;
const demo = useDemoHandler({ prepare: (db) => void (key = issueKey(db, 'wro-1').key) });

const SERVED = [
  ...SITE_PAGES,
  '/external/listings',
  `/external/listings/${listingIdOf('wro-1', 'M-07')}`,
  '/rent/wro-1/M-07',
  '/assets/site.css',
];

describe('routes', () => {
  it.each(SERVED)('%s: GET serves it, another method is 405 with Allow, OPTIONS is 204 with Allow', async (path) => {
    expect((await call(demo.handler, path, { key })).status).toBe(200);
    const refused = await call(demo.handler, path, { key, method: 'DELETE' });
    expect([refused.status, json(refused).code, refused.headers.allow]).toEqual([
      405,
      'method_not_allowed',
      'GET, HEAD, OPTIONS',
    ]);
    const preflight = await call(demo.handler, path, { method: 'OPTIONS' });
    expect([preflight.status, preflight.headers.allow, preflight.text]).toEqual([204, 'GET, HEAD, OPTIONS', '']);
  });

  it.each(['/nope', '/docsx', '/external', '/external/listingsX', '/rentals'])(
    '%s: unknown to every method (404 problem)',
    async (path) => {
      for (const method of ['GET', 'DELETE', 'OPTIONS'] as const) {
        const r = await call(demo.handler, path, { key, method });
        expect([r.status, json(r).code], method).toEqual([404, 'not_found']);
      }
    },
  );
});
