// The only file that opens a socket: node:http with hardened limits, JSON logs and a graceful shutdown.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ListingsError } from '../errors.ts';
import type { Handler } from './handler.ts';
import { JsonLog } from './log.ts';

export interface ServeOptions {
  host: string;
  port: number;
  maxConnections?: number;
}

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  /** Stops accepting, finishes in-flight requests, flushes last use; resolves when done. */
  close(): Promise<void>;
}

export function startServer(handler: Handler, log: JsonLog, opts: ServeOptions): Promise<RunningServer> {
  const server = createServer(
    {
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
      maxHeaderSize: 16 * 1024,
      // Long URLs are answered with 414 by the handler; request bodies are never read.
    },
    (req: IncomingMessage, res: ServerResponse) => {
      const answer = handler({ method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, remoteAddress: req.socket.remoteAddress ?? '' });
      if (closing) answer.headers.connection = 'close';
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? undefined);
      // A body we never read must not keep the connection busy.
      req.resume();
    },
  );
  server.maxConnections = opts.maxConnections ?? 10_000;
  server.maxRequestsPerSocket = 0;
  let closing = false;
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    socket.end(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'}\r\nConnection: close\r\nContent-Length: 0\r\nX-Content-Type-Options: nosniff\r\n\r\n`);
  });

  return new Promise((resolveStart, rejectStart) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      const reason =
        err.code === 'EADDRINUSE' ? `port ${opts.port} on ${opts.host} is already in use: stop the other server or choose another with --port/PORT` :
        err.code === 'EACCES' ? `not allowed to listen on port ${opts.port}: choose a port above 1023` :
        err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND' ? `cannot listen on host ${opts.host}: no such local address` :
        `cannot listen on ${opts.host}:${opts.port}: ${err.message}`;
      rejectStart(new ListingsError('listen_failed', reason));
    });
    server.listen(opts.port, opts.host, () => {
      const { port } = server.address() as AddressInfo;
      const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
      let closed: Promise<void> | undefined;
      resolveStart({
        server,
        port,
        url: `http://${host}:${port}`,
        close: () =>
          (closed ??= new Promise<void>((done) => {
            closing = true;
            server.close(() => {
              handler.api.close();
              log.flush();
              done();
            });
            // Idle keep-alive sockets would hold close() open; in-flight requests finish first.
            server.closeIdleConnections();
            const idle = setInterval(() => server.closeIdleConnections(), 100);
            idle.unref();
            const force = setTimeout(() => {
              for (const s of sockets) s.destroy();
            }, 10_000);
            force.unref();
            server.once('close', () => {
              clearInterval(idle);
              clearTimeout(force);
            });
          })),
      });
    });
  });
}
