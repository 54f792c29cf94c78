// The transport on a real port: a request whose handling throws costs its own socket only, never the batch around it.
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Answer, RequestHandler, RequestLike } from './answer.ts';
import { startServer, type RunningServer } from './server.ts';

let server: RunningServer;

beforeAll(async () => {
  const handler: RequestHandler = {
    answer: (req: RequestLike): Answer => {
      if (req.url === '/boom') throw new Error('a handler that breaks its promise never to throw');
      return { status: 200, headers: { 'content-type': 'text/plain' }, body: `ok ${req.url}` };
    },
    batch: (fn: () => void) => fn(),
    close: () => {},
  };
  server = await startServer(handler, () => {}, { host: '127.0.0.1', port: 0 });
});
afterAll(() => server.close());

/** The status and body of GET path, or the error that ended its socket. */
function get(path: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = request(`${server.url}${path}`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  });
}

it('a throwing request loses its socket; the requests beside it and after it are answered', async () => {
  const answers = await Promise.all(['/a', '/boom', '/b', '/boom', '/c'].map(get));
  expect(answers[0]).toEqual({ status: 200, body: 'ok /a' });
  expect(answers[1]).toHaveProperty('error');
  expect(answers[2]).toEqual({ status: 200, body: 'ok /b' });
  expect(answers[3]).toHaveProperty('error');
  expect(answers[4]).toEqual({ status: 200, body: 'ok /c' });
  expect(await get('/after')).toEqual({ status: 200, body: 'ok /after' });
});
