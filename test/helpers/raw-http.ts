// HTTP/1.1 over a bare socket, for requests a well-behaved client refuses to send (odd methods, raw bytes, no Host, slow headers).
import { connect, type Socket } from 'node:net';

export interface RawReply {
  status: number;
  /** Header names lower-cased; a repeated header keeps every value. */
  headers: Record<string, string[]>;
  body: Buffer;
  /** Interim (1xx) answers that came before the final one. */
  interim: number[];
}

export interface RawOptions {
  localAddress?: string;
  /** Give up (reject) after this long without the whole answer; generous, since the machine may be busy. */
  timeoutMs?: number;
}

/** Sends the bytes as they are and reads until the server closes; send `Connection: close` (or expect the timeout). */
export function rawRequest(port: number, bytes: string | Buffer, opts: RawOptions = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: opts.localAddress });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${opts.timeoutMs ?? 20_000} ms`));
    }, opts.timeoutMs ?? 20_000);
    socket.on('data', (d: Buffer) => chunks.push(d));
    // A reset after the answer was written (we may still be sending a body the server never reads) is not a failure.
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      try {
        resolve(parseReply(all));
      } catch (err) {
        reject(err);
      }
    });
    socket.end(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
  });
}

/** Splits one connection's bytes into the final answer (after any 1xx), honouring Content-Length when present. */
export function parseReply(all: Buffer): RawReply {
  let rest = all;
  const interim: number[] = [];
  for (;;) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1)
      throw new Error(
        `no complete answer (${all.length} bytes: ${JSON.stringify(all.subarray(0, 200).toString('latin1'))})`,
      );
    const [statusLine, ...lines] = rest.subarray(0, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine!);
    if (!m) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
    const status = Number(m[1]);
    const headers: Record<string, string[]> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).toLowerCase();
      (headers[name] ??= []).push(line.slice(colon + 1).trim());
    }
    rest = rest.subarray(end + 4);
    if (status >= 100 && status < 200) {
      interim.push(status);
      continue;
    }
    const length = headers['content-length']?.[0];
    const body =
      length !== undefined && headers['transfer-encoding'] === undefined ? rest.subarray(0, Number(length)) : rest;
    return { status, headers, body, interim };
  }
}

/** The first value of a header, or undefined. */
export function headerOf(reply: RawReply, name: string): string | undefined {
  return reply.headers[name.toLowerCase()]?.[0];
}

/** A GET with the given extra header lines, closing the connection after the answer. */
export function rawGet(path: string, headers: Record<string, string> = {}, method = 'GET'): string {
  const lines = Object.entries({ Host: '127.0.0.1', ...headers, Connection: 'close' }).map(
    ([k, v]) => `${k}: ${v}\r\n`,
  );
  return `${method} ${path} HTTP/1.1\r\n${lines.join('')}\r\n`;
}

/** Opens a socket and resolves once it is connected (for tests that write to it slowly). */
export function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ port, host: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
}
