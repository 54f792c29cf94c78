// A request that fails unexpectedly leaves its stack and request id in the log at every verbosity: `serve --quiet` and
// the demo as `npm start` runs it (request lines off), and `serve` with request lines on.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { demoDb, freePort, spawnServer, tempDir } from './helpers/fixture.ts';
import { call } from './helpers/http.ts';
import { until } from './helpers/wait.ts';

let dir: string;
let file: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  const demo = demoDb(dir);
  file = demo.file;
  demo.db.close();
});
afterEach(() => cleanup());

/** A facility's stored amenities made unreadable, so that rendering its rental page throws. */
function breakFacility(dbFile: string): string {
  const db = new Database(dbFile);
  try {
    db.prepare("UPDATE facilities SET amenities = '{not json' WHERE id = 'wro-1'").run();
    const row = db.prepare("SELECT code FROM listings WHERE facility_id = 'wro-1' AND active = 1 LIMIT 1").get();
    return `/rent/wro-1/${encodeURIComponent((row as { code: string }).code)}`;
  } finally {
    db.close();
  }
}

interface Line {
  level: string;
  request_id?: string;
  method?: string;
  path?: string;
  status?: number;
  error?: { type: string; stack: string };
}

/** The 500's request id, and the log line that names it once it is written (the log is written asynchronously). */
async function failureLogged(base: string, page: string, stdout: () => string): Promise<{ id: string; lines: Line[] }> {
  const reply = await call(base, page);
  expect(reply.status).toBe(500);
  expect(reply.text).not.toMatch(/\bat \S+:\d+:\d+/);
  const id = reply.headers['x-request-id']!;
  const lines = await until('the error logged', () => {
    const all = stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Line);
    return all.some((l) => l.level === 'error' && l.request_id === id) && all;
  });
  const error = lines.find((l) => l.level === 'error' && l.request_id === id)!.error!;
  expect(error.type).toBe('SyntaxError');
  expect(error.stack).toMatch(/^SyntaxError: /);
  expect(error.stack).toMatch(/\n\s+at facilityOf .+:\d+:\d+\)\n/);
  const failed = lines.find((l) => l.level === 'error' && l.request_id === id)!;
  expect([failed.method, failed.path]).toEqual(['GET', page]);
  return { id, lines };
}

it.each([
  ['serve --quiet', ['--quiet'], false],
  ['serve', [], true],
])('%s logs the stack of a failed request, request lines as asked', async (_name, flags, requestLines) => {
  const server = spawnServer(['serve', '--port', String(await freePort()), ...flags], { LISTINGS_DB: file });
  try {
    const base = await server.ready;
    const { id, lines } = await failureLogged(base, breakFacility(file), () => server.output().stdout);
    // The request's line follows its error's (it is written once the answer is made).
    const requestLine = new RegExp(`"level":"info".*"request_id":"${id}".*"status":500`);
    if (requestLines) await until('the request line', () => requestLine.test(server.output().stdout));
    else expect(lines.some((l) => l.level === 'info')).toBe(false);
  } finally {
    await server.stop();
  }
});

it('the demo, as `npm start` runs it, logs the stack of a failed request and no request lines', async () => {
  const port = await freePort();
  const demo = spawnServer(['demo', '--db', file, '--port', String(port), '--panel-port', String(await freePort())]);
  demo.ready.catch(() => {});
  try {
    await until('the demo running', () => demo.output().stderr.includes('Press Ctrl-C'), { timeoutMs: 30_000 });
    const base = `http://127.0.0.1:${port}`;
    expect((await call(base, '/')).status).toBe(200);
    const { lines } = await failureLogged(base, breakFacility(file), () => demo.output().stdout);
    expect(lines.filter((l) => l.level === 'info')).toEqual([]);
  } finally {
    await demo.stop();
  }
});
