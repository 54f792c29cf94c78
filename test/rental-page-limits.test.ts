// Rental pages need no key, so they are bounded otherwise: kept in a cache of their own (one store read of one listing
// per page, unknown codes included, none again) and limited per client address, which a trusted proxy's X-Forwarded-For
// names.
import { describe, expect, it } from 'vitest';
import { openDb } from '../server/store/db.ts';
import { applyImport } from '../server/store/facilities.ts';
import { markedFacility } from './helpers/data.ts';
import { loadConfig } from '../server/config.ts';
import { freePort, issueKey, startTestServer } from './helpers/fixture.ts';
import { handlerOver, inject, type Injected } from './helpers/inject.ts';
import { useDemoDb } from './helpers/setup.ts';

let key: string;
const { json, facility } = markedFacility('rent-a', 'QXRENT', 30);
// Each test takes a handler (or a server) of its own over this file: fresh limits per address.
const demo = useDemoDb({
  data: { facilities: [json] } as never,
  prepare: (db) => {
    key = issueKey(db, facility.id).key;
  },
});

describe('rental pages', () => {
  it("are read once each, unknown codes included, and never build the API's views of the facility", async () => {
    const handler = handlerOver(demo.file, { pageLimit: { rate: 1e9, burst: 1e9 } });
    try {
      for (const round of [1, 2]) {
        for (const code of facility.codes)
          expect((await inject(handler, { url: `/rent/rent-a/${code}` })).status).toBe(200);
        for (let i = 0; i < 20; i++)
          expect((await inject(handler, { url: `/rent/rent-a/NOPE-${i}` })).status).toBe(404);
        expect(handler.pages.reads, `round ${round}`).toBe(facility.codes.length + 20);
      }
      expect(handler.views.reads).toBe(0);
      await inject(handler, { url: '/external/listings', headers: { 'x-api-key': key } });
      expect(handler.views.builds).toBe(1);
    } finally {
      handler.close();
    }
  });

  it("show another connection's import on the next page, as the API does", async () => {
    const handler = handlerOver(demo.file, { pageLimit: { rate: 1e9, burst: 1e9 } });
    try {
      const code = facility.codes[0]!;
      expect((await inject(handler, { url: `/rent/rent-a/${code}` })).body.toString()).toContain('QXRENT unit 0');
      const other = openDb(demo.file, { migrate: false });
      const renamed = { ...json, listings: json.listings.map((l, i) => (i === 0 ? { ...l, title: 'QXRENAMED' } : l)) };
      applyImport(other, { facilities: [renamed] } as never);
      other.close();
      let answers: Promise<Injected>[] = [];
      handler.batch(() => {
        answers = [
          inject(handler, { url: `/rent/rent-a/${code}` }),
          inject(handler, { url: '/external/listings', headers: { 'x-api-key': key } }),
        ];
      });
      for (const a of await Promise.all(answers)) expect(a.body.toString()).toContain('QXRENAMED');
    } finally {
      handler.close();
    }
  });

  it('are limited per client address: past the burst a 429 page with Retry-After; another address is served', async () => {
    const handler = handlerOver(demo.file, { pageLimit: { rate: 1, burst: 5 } });
    try {
      const url = `/rent/rent-a/${facility.codes[1]}`;
      for (let i = 0; i < 5; i++)
        expect((await inject(handler, { url, remoteAddress: '198.51.100.1' })).status).toBe(200);
      const refused = await inject(handler, { url, remoteAddress: '198.51.100.1' });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
      // In the visitor's language, as the page itself would be.
      const polish = await inject(handler, {
        url,
        remoteAddress: '198.51.100.1',
        headers: { 'accept-language': 'pl' },
      });
      expect(String(polish.body)).toContain('Zbyt wiele żądań');
      expect((await inject(handler, { url, remoteAddress: '198.51.100.2' })).status).toBe(200);
      // The API is not a page: a key's own limit governs it, not the address's.
      const api = await inject(handler, {
        url: '/external/listings',
        headers: { 'x-api-key': key },
        remoteAddress: '198.51.100.1',
      });
      expect(api.status).toBe(200);
    } finally {
      handler.close();
    }
  });

  it('count an IPv6 client by its /64, for pages, clicks and failed keys alike: rotating addresses gets no fresh burst', async () => {
    const handler = handlerOver(demo.file, {
      pageLimit: { rate: 0.001, burst: 3 },
      authFailureLimit: { rate: 0.001, burst: 3 },
    });
    try {
      const page = `/rent/rent-a/${facility.codes[1]}`;
      const click = `/go/rent-a/${facility.codes[1]}?ref=nobody`;
      const statuses = async (url: string, headers: Record<string, string> = {}) => {
        const out: number[] = [];
        for (let i = 1; i <= 5; i++)
          out.push((await inject(handler, { url, headers, remoteAddress: `2001:db8:1:2::${i.toString(16)}` })).status);
        return out;
      };
      expect(await statuses(page)).toEqual([200, 200, 200, 429, 429]);
      expect((await inject(handler, { url: page, remoteAddress: '2001:db8:1:3::1' })).status).toBe(200);
      const clicks = await statuses(click, { 'user-agent': 'Mozilla/5.0' });
      expect(clicks.filter((s) => s === 429)).toHaveLength(5);
      const keys = await statuses('/external/listings', { 'x-api-key': 'svc_live_' + 'x'.repeat(32) });
      expect(keys.slice(0, 3).every((s) => s === 401)).toBe(true);
      expect(keys.slice(3)).toEqual([429, 429]);
    } finally {
      handler.close();
    }
  });
});

describe('rental pages from many addresses at once', () => {
  it('render within a budget for all clients together: past it a held 503 with Retry-After; kept pages and the API still answer', async () => {
    const unlimited = { rate: 1e9, burst: 1e9 };
    const handler = handlerOver(demo.file, { pageLimit: unlimited, pageRenderLimit: { rate: 0.001, burst: 3 } });
    try {
      const page = (i: number) =>
        inject(handler, { url: `/rent/rent-a/${facility.codes[i]}`, remoteAddress: `198.51.100.${10 + i}` });
      for (let i = 0; i < 3; i++) expect((await page(i)).status).toBe(200);
      // A fourth address, a page not kept: each address is far under its own limit, the server's renders are not.
      const busy = await page(3);
      expect(busy.status).toBe(503);
      expect(busy.headers['retry-after']).toBe('1');
      expect(busy.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(busy.body.toString()).toContain('Busy');
      expect(handler.pages.reads).toBe(3);
      // A kept page costs no render, and keyed API traffic has budgets of its own.
      expect((await page(0)).status).toBe(200);
      const api = await inject(handler, { url: '/external/listings', headers: { 'x-api-key': key } });
      expect(api.status).toBe(200);
    } finally {
      handler.close();
    }
  });
});

describe('behind a proxy (TRUST_PROXY)', () => {
  async function pagesFrom(trustProxy: string, forwardedFor: string[]): Promise<number[]> {
    const app = await startTestServer(demo.file, {
      config: loadConfig({ db: demo.file, port: await freePort(), host: '127.0.0.1', trustProxy }, {}),
      pageLimit: { rate: 0.001, burst: 2 },
    });
    try {
      const statuses: number[] = [];
      for (const address of forwardedFor) {
        const r = await fetch(`${app.url}/rent/rent-a/${facility.codes[2]}`, {
          headers: { 'x-forwarded-for': `203.0.113.250, ${address}` },
        });
        await r.arrayBuffer();
        statuses.push(r.status);
      }
      return statuses;
    } finally {
      await app.close();
    }
  }

  it("a trusted proxy's X-Forwarded-For names the client, so one client's burst does not limit another", async () => {
    expect(await pagesFrom('127.0.0.1', ['198.51.100.1', '198.51.100.1', '198.51.100.1', '198.51.100.2'])).toEqual([
      200, 200, 429, 200,
    ]);
  });

  it('without a trusted proxy, X-Forwarded-For is ignored: any client could write it', async () => {
    expect(await pagesFrom('', ['198.51.100.1', '198.51.100.2', '198.51.100.3'])).toEqual([200, 200, 429]);
  });
});

describe('clients that keep sending while refused', () => {
  it('get their 429 held back (pages, keys and failed keys alike); a client within its limits is never held', async () => {
    const handler = handlerOver(demo.file, {
      pageLimit: { rate: 0.001, burst: 3 },
      defaultLimit: { rate: 0.001, burst: 3 },
      authFailureLimit: { rate: 0.001, burst: 3 },
      holdRefusedMs: 1,
    });
    try {
      const call = (url: string, headers: Record<string, string> = {}, remoteAddress = '198.51.100.9') =>
        handler.answer({ method: 'GET', url, headers, remoteAddress });
      const code = facility.codes[0]!;
      for (const [what, send] of [
        ['pages', () => call(`/rent/rent-a/${code}`)],
        ['a key', () => call('/external/listings', { 'x-api-key': key })],
        ['failed keys', () => call('/external/listings', { 'x-api-key': 'svc_live_nope' }, '198.51.100.10')],
      ] as const) {
        const answers = Array.from({ length: 9 }, send);
        // Three allowed (or 401), three refused at once (the burst's worth of patience), then held.
        expect(
          answers.slice(0, 6).every((a) => a.later === undefined),
          what,
        ).toBe(true);
        expect(
          answers.slice(6).every((a) => a.later !== undefined),
          what,
        ).toBe(true);
        const held = await answers[8]!.later!;
        expect(held.status, what).toBe(429);
        expect(held.headers['retry-after'], what).toMatch(/^[1-9]\d*$/);
        expect(held.headers['x-request-id'], what).toBeTruthy();
      }
      // Another address is not held for the first one's flood.
      expect(call(`/rent/rent-a/${code}`, {}, '198.51.100.11').later).toBeUndefined();
    } finally {
      handler.close();
    }
  });
});
