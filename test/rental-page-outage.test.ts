// PostgreSQL down, as a renter sees it (issue 42, item 11): rental pages answer an HTML 503 with Retry-After while the
// API keeps its problem+json, and the node logs one line when the database is back, with the outage's length.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../server/logger.ts';
import { openStore } from '../server/store/store.ts';
import { demoImport } from './helpers/fixture.ts';
import { call } from './helpers/http.ts';
import { handlerAt } from './helpers/inject.ts';
import { recordKey } from './helpers/capture.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';
import { until } from './helpers/wait.ts';

let pg: PgServer;
let handler: Awaited<ReturnType<typeof handlerAt>>;
const entries: Record<string, unknown>[] = [];
let key: string;
let page: string;

beforeAll(async () => {
  pg = await startPostgres();
  const url = await pg.newDatabase();
  const store = await openStore(url);
  const data = demoImport();
  await store.applyImport(data);
  key = (await store.createKey({ facilityId: 'wro-1', prefix: 'svc' })).key;
  recordKey(key);
  await store.close();
  const code = data.facilities.find((f) => f.id === 'wro-1')!.listings.find((l) => l.active)!.code;
  page = `/rent/wro-1/${encodeURIComponent(code)}`;
  const { logger } = createLogger({
    quiet: true,
    write: (line) => entries.push(JSON.parse(line) as Record<string, unknown>),
  });
  handler = await handlerAt(url, { logger });
}, 60_000);
afterAll(async () => {
  await handler?.stop();
  await pg?.close();
});

const fetched = async (path: string, headers: Record<string, string> = {}) => {
  const r = await call(handler, path, { headers });
  return { status: r.status, type: r.headers['content-type'], retry: r.headers['retry-after'], body: r.text };
};

/** The node's log entries with this level. */
const logged = (level: string) => entries.filter((entry) => entry.level === level);

it('rental pages answer an HTML 503 with Retry-After through an outage, the API problem+json, and one line tells the recovery', async () => {
  expect((await fetched(page)).status).toBe(200);
  const stopping = performance.now();
  await pg.stop();
  const down = await until('a refused rental page', async () => {
    const r = await fetched(page);
    return r.status === 503 && r;
  });
  expect(down.type).toBe('text/html; charset=utf-8');
  expect(down.retry).toMatch(/^[1-9]\d*$/);
  expect(down.body).toMatch(/^<!doctype html>/);
  expect(down.body).not.toContain('database_unavailable');
  // Another page, not kept, is refused alike; so is a page already kept, whose data cannot be confirmed either.
  expect((await fetched('/rent/wro-1/NO-SUCH')).status).toBe(503);
  const api = await fetched('/external/listings', { 'x-api-key': key });
  expect([api.status, api.type, api.retry]).toEqual([503, 'application/problem+json', down.retry]);
  expect((JSON.parse(api.body) as { code: string }).code).toBe('database_unavailable');
  // Refused for at least this long: the outage the log tells is at least as long.
  await new Promise((resolve) => setTimeout(resolve, 300));
  await pg.start();
  await until('the rental page served again', async () => (await fetched(page)).status === 200, { timeoutMs: 30_000 });
  const atMost = performance.now() - stopping;
  await until('the recovery logged', () => logged('warn').length > 0);
  // More requests after the recovery: still the one line.
  for (let i = 0; i < 5; i++) expect((await fetched(page)).status).toBe(200);
  expect(logged('error')).toHaveLength(1);
  const recovered = logged('warn');
  expect(recovered).toHaveLength(1);
  expect(recovered[0]!.outage_ms).toBeGreaterThanOrEqual(300);
  expect(recovered[0]!.outage_ms).toBeLessThanOrEqual(atMost);
  expect(recovered[0]!.message).toMatch(/\d+\.\d s/);
});
