// Sockets the HTTP parser lets go of (CONNECT, a malformed request, a head that never completes): answered, then closed
// both ways, so a client that never closes its side holds no connection slot; one that resets its connection (RST)
// costs its own socket only: the server process stays up and answers the next client.
import { once } from 'node:events';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { servedDemo, type ServedDemo } from './helpers/fixture.ts';
import { openSocket } from './helpers/raw-http.ts';
import { until } from './helpers/wait.ts';

let demo: ServedDemo;
let server: ServedDemo['server'];
let base: string;
let port: number;

beforeAll(async () => {
  demo = await servedDemo();
  ({ server, base, port } = demo);
});
afterAll(() => demo.close());

/** Sends the bytes, waits until the server has answered (or closed), then resets the connection instead of closing it. */
async function sendAndReset(bytes: string, waitForAnswer: boolean): Promise<void> {
  const s = await openSocket(port);
  s.on('error', () => undefined);
  s.write(bytes);
  if (waitForAnswer) await Promise.race([once(s, 'data'), once(s, 'close')]);
  s.resetAndDestroy();
}

it.each([
  ['CONNECT, reset at once', 'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n', false],
  ['CONNECT, reset after its 405', 'CONNECT x:443 HTTP/1.1\r\nHost: x:443\r\n\r\n', true],
  ['a malformed request line, reset after its 400', 'NOT HTTP\r\n\r\n', true],
  ['headers over the limit, reset at once', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`, false],
])('%s: the server stays up', async (_name, bytes, waitForAnswer) => {
  for (let i = 0; i < 3; i++) await sendAndReset(bytes, waitForAnswer);
  // Each reset reaches the server as a socket error; the next request is answered after all of them.
  await until(
    'the server answers',
    async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.status === 200,
  );
  expect(server.child.exitCode).toBeNull();
  expect(server.output().stderr).not.toMatch(/ECONNRESET|Unhandled|Error:/);
});

/**
 * Whether the server process holds its end of the connection from this client port open: the kernel's TCP table gives
 * that socket's inode, and the process's open files name each socket by inode (Linux).
 */
function serverHolds(clientPort: number): boolean {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
  const row = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((f) => f[1]?.endsWith(`:${hex(port)}`) && f[2]?.endsWith(`:${hex(clientPort)}`));
  if (!row) return false;
  const fd = `/proc/${server.child.pid}/fd`;
  return readdirSync(fd).some((n) => {
    try {
      return readlinkSync(`${fd}/${n}`) === `socket:[${row[9]}]`;
    } catch {
      return false; // closed since it was listed
    }
  });
}

it('a head that never completes gets its 408 and the server closes the socket, though the client keeps its side open', async () => {
  const s = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await once(s, 'connect');
  const clientPort = s.localPort!;
  await until('the server to hold the connection', () => serverHolds(clientPort));
  let answer = '';
  s.on('data', (d: Buffer) => (answer += d.toString()));
  s.on('error', () => undefined);
  s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
  await once(s, 'end'); // the server's FIN after its answer, after the 10 s head timeout
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  // Half-closed, the server would hold the socket (and its connection slot) until the client closed its side.
  await until('the server to let the socket go', () => !serverHolds(clientPort), { timeoutMs: 5_000 });
  s.destroy();
}, 30_000);
