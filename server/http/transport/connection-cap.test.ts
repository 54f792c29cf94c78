// Connections per client address on a real port: past the cap an address's new connections are closed as they open,
// while other addresses, and a trusted proxy, are served.
import { connect, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import type { RequestHandler } from './answer.ts';
import { startServer, type RunningServer } from './server.ts';

const handler: RequestHandler = {
  answer: () => ({ status: 200, headers: { 'content-type': 'text/plain', 'content-length': '2' }, body: 'ok' }),
  batch: (fn: () => void) => fn(),
  close: () => {},
};

const running: RunningServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await Promise.all(running.splice(0).map((r) => r.close()));
});

async function serverWith(opts: { trustProxy?: string[] } = {}): Promise<RunningServer> {
  const server = await startServer(handler, () => {}, {
    host: '127.0.0.1',
    port: 0,
    maxConnectionsPerAddress: 3,
    ...opts,
  });
  running.push(server);
  return server;
}

/** A connection from `from` that has sent half a request head, held open as a slow client holds it. */
function slowHead(port: number, from: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ port, host: '127.0.0.1', localAddress: from }, () => {
      s.write('GET / HTTP/1.1\r\nHost: x\r\n');
      resolve(s);
    });
    s.on('error', reject);
    sockets.push(s);
  });
}

/** A whole request from `from` on a new connection: the status line, or 'closed' when the server closed it unanswered. */
function ask(port: number, from: string): Promise<string> {
  return new Promise((resolve) => {
    let got = '';
    const s = connect({ port, host: '127.0.0.1', localAddress: from }, () =>
      s.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'),
    );
    sockets.push(s);
    s.setEncoding('utf8');
    s.on('data', (d: string) => (got += d));
    s.on('error', () => undefined);
    s.on('close', () => resolve(got === '' ? 'closed' : got.split('\r\n')[0]!));
  });
}

it('closes an address’s connections past its cap as they open, and serves other addresses', async () => {
  const { port } = await serverWith();
  for (let i = 0; i < 3; i++) await slowHead(port, '127.0.0.1');
  expect(await ask(port, '127.0.0.1')).toBe('closed');
  expect(await ask(port, '127.0.0.2')).toBe('HTTP/1.1 200 OK');
  // One of the three gone, the address may open one more.
  const first = sockets[0]!;
  const gone = new Promise((r) => first.once('close', r));
  first.destroy();
  await gone;
  await expect.poll(() => ask(port, '127.0.0.1')).toBe('HTTP/1.1 200 OK');
});

it('does not count a trusted proxy’s connections: they carry everybody’s', async () => {
  const { port } = await serverWith({ trustProxy: ['127.0.0.1'] });
  for (let i = 0; i < 4; i++) await slowHead(port, '127.0.0.1');
  expect(await ask(port, '127.0.0.1')).toBe('HTTP/1.1 200 OK');
});
