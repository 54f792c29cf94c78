// A rental page (or a rent link) that fails unexpectedly answers a renter's 500 as an HTML page in the visitor's
// language, naming the request id to quote and no stack; the API's 500 stays problem+json.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Handler } from '../server/http/handler.ts';
import { createLogger } from '../server/logger.ts';
import { updateKey } from '../server/store/keys.ts';
import { demoDb, issueKey, tempDir } from './helpers/fixture.ts';
import { handlerOver, inject } from './helpers/inject.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
let cleanup: () => void;
let handler: Handler;
let code: string;
let key: string;
const errors: { request_id: string }[] = [];

beforeAll(() => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  const demo = demoDb(dir);
  const reader = issueKey(demo.db, 'wro-1');
  updateKey(demo.db, reader.id, { ref: 'odra' });
  key = reader.key;
  demo.db.close();
  // The facility's stored amenities made unreadable, so that making any of its answers throws.
  const db = new Database(demo.file);
  db.prepare("UPDATE facilities SET amenities = '{not json' WHERE id = 'wro-1'").run();
  code = (
    db.prepare("SELECT code FROM listings WHERE facility_id = 'wro-1' AND active = 1 LIMIT 1").get() as {
      code: string;
    }
  ).code;
  db.close();
  const { logger } = createLogger({
    quiet: true,
    write: (line) => errors.push(JSON.parse(line) as { request_id: string }),
  });
  const open = { rate: 1e9, burst: 1e9 };
  handler = handlerOver(demo.file, { logger, pageLimit: open, pageRenderLimit: open });
});
afterAll(() => {
  handler.close();
  cleanup();
});

it.each([
  ['a rental page', () => `/rent/wro-1/${encodeURIComponent(code)}`],
  ['a rent link', () => `/go/wro-1/${encodeURIComponent(code)}?ref=odra`],
])('%s that fails is an HTML 500 in the visitor language, with its request id', async (_name, url) => {
  const reply = await inject(handler, {
    url: url(),
    headers: { 'accept-language': 'pl-PL,pl;q=0.9', 'user-agent': BROWSER },
  });
  expect(reply.status).toBe(500);
  expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(reply.headers['cache-control']).toBe('no-store');
  const text = reply.body.toString();
  expect(text).toMatch(/<html lang="pl"/);
  const id = reply.headers['x-request-id']!;
  expect(text).toContain(`<code>${id}</code>`);
  expect(text).not.toMatch(/\bat \S+:\d+:\d+/);
  expect(text).not.toMatch(/SyntaxError|JSON/);
  // The failure is in the log under the id the renter is shown.
  expect(errors.some((l) => l.request_id === id)).toBe(true);
});

it("the API's failure stays problem+json", async () => {
  const reply = await inject(handler, { url: '/external/listings', headers: { 'x-api-key': key } });
  expect(reply.status).toBe(500);
  expect(reply.headers['content-type']).toBe('application/problem+json');
});
