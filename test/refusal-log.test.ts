// Requests the transport refuses before the handler sees them (no Host, a body on a GET, what the HTTP parser refuses,
// headers too large, CONNECT, a head that never ends) still leave a request line at info, with the answer's request id.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../server/app.ts';
import { demoDb, startTestServer, tempDir } from './helpers/fixture.ts';
import { headerOf, openSocket, parseReply, rawGet, rawRequest, type RawReply } from './helpers/raw-http.ts';
import { until } from './helpers/wait.ts';
import { once } from 'node:events';

let app: App & { logs: string[] };
let cleanup: () => void;
beforeAll(async () => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  const demo = demoDb(dir);
  demo.db.close();
  app = await startTestServer(demo.file);
});
afterAll(async () => {
  await app.close();
  cleanup();
});

interface RequestLine {
  level: string;
  request_id: string;
  method: string | null;
  path: string | null;
  status: number;
  duration_ms: number;
  key_id: string | null;
}

/** The request line that names `id`, once the log has it. */
function lineOf(id: string): Promise<RequestLine> {
  return until(
    `the request line of ${id}`,
    () =>
      app.logs
        .flatMap((t) => t.split('\n'))
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as RequestLine)
        .find((l) => l.request_id === id),
    { timeoutMs: 5000 },
  );
}

async function loggedAs(reply: RawReply, status: number, method: string | null, path: string | null) {
  expect(reply.status).toBe(status);
  const id = headerOf(reply, 'x-request-id')!;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  const line = await lineOf(id);
  expect(line).toMatchObject({ level: 'info', method, path, status, key_id: null });
  expect(line.duration_ms).toBeGreaterThanOrEqual(0);
}

const port = () => Number(new URL(app.url).port);

it('logs a request without a Host header', async () => {
  const reply = await rawRequest(port(), 'GET /external/listings HTTP/1.1\r\nConnection: close\r\n\r\n');
  await loggedAs(reply, 400, 'GET', '/external/listings');
});

it('logs a GET with a body, its path through the URL rules', async () => {
  const key = 'sl_live_' + 'a'.repeat(32);
  const reply = await rawRequest(port(), rawGet(`/external/listings/${key}?x=1`, { 'Content-Length': '5' }) + 'abcde');
  await loggedAs(reply, 400, 'GET', '/external/listings/sl_live_[redacted]');
});

it('logs a method the HTTP parser refuses', async () => {
  const reply = await rawRequest(port(), rawGet('/external/listings', {}, 'BREW'));
  await loggedAs(reply, 400, 'BREW', '/external/listings');
});

it('logs headers too large, the path capped', async () => {
  const path = '/rent' + '/x-1'.repeat(100);
  const reply = await rawRequest(port(), rawGet(path, { 'X-Filler': 'x'.repeat(17_000) }));
  await loggedAs(reply, 431, 'GET', path.slice(0, 200));
});

it('logs a CONNECT', async () => {
  const reply = await rawRequest(port(), 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
  await loggedAs(reply, 405, 'CONNECT', 'example.com:443');
});

it('logs a head that never ends (408)', async () => {
  const socket = await openSocket(port());
  const chunks: Buffer[] = [];
  socket.on('data', (d: Buffer) => chunks.push(d));
  socket.write('GET /external/listings HTTP/1.1\r\nHost: 127.0.0.1\r\n');
  await once(socket, 'close');
  await loggedAs(parseReply(Buffer.concat(chunks)), 408, null, null);
}, 30_000);
