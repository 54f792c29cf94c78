// The only file that opens a socket: node:http with hardened limits, JSON logs and a graceful shutdown.
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { listenFailure } from './listen-failure.ts';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  ALLOWED_METHODS,
  problem,
  type Answer,
  type Headers,
  type RefusedRequest,
  type RequestHandler,
  type RequestLike,
} from './answer.ts';
import { CORS_HEADERS } from './cors.ts';
import { ClientAddresses, trustedProxiesOf } from './client-address.ts';
import { capPerAddress } from './connection-cap.ts';
import { keepTickShape } from './tick-shape.ts';

export interface ServeOptions {
  host: string;
  port: number;
  maxConnections?: number;
  /** Connections one client address (an IPv6 /64) may hold; a trusted proxy's are not counted. */
  maxConnectionsPerAddress?: number;
  /** The proxies in front (TRUST_PROXY's addresses and ranges): their X-Forwarded-For names the client. */
  trustProxy?: readonly string[];
}

export interface RunningServer {
  server: Server;
  url: string;
  port: number;
  /** Stops accepting, finishes in-flight requests, flushes last use; resolves when done. */
  close(): Promise<void>;
}

/** Connections the server holds at most; past them Node closes each new one as it opens. */
export const MAX_CONNECTIONS = 10_000;
/**
 * Connections one client address may hold: a tenth of the server's, so that one client (slow heads, reopened as they
 * time out) cannot take every slot, and one address behind a NAT still has hundreds of browsers' worth.
 */
export const MAX_CONNECTIONS_PER_ADDRESS = 1_000;

/** An answer made below the handler (malformed requests): still problem+json, with CORS and a request id, so a browser can read it. */
function bareProblem(
  code: Parameters<typeof problem>[0],
  detail: string,
  headers: Headers = {},
): ReturnType<typeof problem> {
  const answer = problem(code, detail, {
    ...CORS_HEADERS,
    ...headers,
    'x-request-id': randomUUID(),
    'x-content-type-options': 'nosniff',
    connection: 'close',
  });
  answer.headers['content-length'] = String(Buffer.byteLength(answer.body as string));
  return answer;
}

/** A node:http request as the handler reads it; the peer's address is looked up only if asked for (a refused key). */
class SocketRequest implements RequestLike {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];

  constructor(
    private readonly req: IncomingMessage,
    private readonly addresses: ClientAddresses,
  ) {
    this.method = req.method ?? 'GET';
    const url = req.url ?? '/';
    this.url = url.charCodeAt(0) === 47 ? url : originFormOf(url);
    this.headers = req.headers;
  }

  get remoteAddress(): string {
    return this.addresses.of(this.req);
  }
}

/**
 * An absolute-form target (`GET http://host/path`, RFC 9112 3.2.2: a server must accept it) as its path and query; any
 * other target stays as it is.
 */
function originFormOf(target: string): string {
  const authority = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(target);
  if (!authority) return target;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * The method and target of the request line at the start of the bytes the HTTP parser refused, when they are there (a
 * refusal in a later chunk of the head, a timeout, leaves them unknown).
 */
function requestLineOf(raw: Buffer | undefined): Pick<RefusedRequest, 'method' | 'url'> {
  const line =
    raw && /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\S{1,4096}) HTTP\/\d\.\d\r?\n/.exec(raw.toString('latin1', 0, 4200));
  return line ? { method: line[1]!, url: line[2]! } : { method: null, url: null };
}

/** The methods routes answer (ALLOWED_METHODS): a body on one of them is refused rather than routed. */
const READ_METHODS = new Set(ALLOWED_METHODS.split(', '));

/** The bytes of an answer for a socket that has no ServerResponse. */
function rawAnswer(answer: Answer): string {
  const head = Object.entries(answer.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  return `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n${head}\r\n${answer.body as string}`;
}

/**
 * An answer on a socket the HTTP parser has let go of (a malformed request, a timeout, CONNECT), then the socket closed
 * both ways: half-open sockets are allowed (httpAllowHalfOpen), and a client that never closes its side would otherwise
 * hold its connection slot for good. Node no longer listens for the socket's errors here: a reset must not throw.
 */
function lastWords(socket: Socket, answer: Answer): void {
  socket.on('error', () => socket.destroy());
  socket.end(rawAnswer(answer), () => socket.destroy());
}

/** `handlerFor`: a handler, or one made once the port is known (a public URL that names a port asked for as 0). */
export function startServer(
  handlerFor: RequestHandler | ((port: number) => RequestHandler),
  flushLog: () => void,
  opts: ServeOptions,
): Promise<RunningServer> {
  keepTickShape();
  // Set before the first connection: 'listening' comes before any connection is accepted.
  let handler = typeof handlerFor === 'function' ? (undefined as unknown as RequestHandler) : handlerFor;
  const server = createServer(
    {
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      // How often the two timeouts above are checked: Node's 30 s default let a slow head run to 40 s.
      connectionsCheckingInterval: 1_000,
      keepAliveTimeout: 5_000,
      maxHeaderSize: 16 * 1024,
      // Checked below, so that the 400 is problem+json like every other error.
      requireHostHeader: false,
      // Long URLs are answered with 414 by the handler; a request with a body is refused before any of it is read.
    },
    onRequest,
  );
  // Requests are answered in batches, after the event loop's poll phase has read every socket that had data: one
  // freshness check then covers the whole batch (docs: "Freshness"), instead of one check per request.
  let pending: { req: IncomingMessage; res: ServerResponse }[] = [];
  function onRequest(req: IncomingMessage, res: ServerResponse) {
    if (pending.push({ req, res }) === 1) setImmediate(answerPending);
  }
  function answerPending() {
    // Requests parsed while this batch is answered (from bytes already read) start a batch of their own.
    const batch = pending;
    pending = [];
    if (handler.beforeBatch) void handler.beforeBatch(batch.length).then(() => answerBatch(batch));
    else answerBatch(batch);
  }
  function answerBatch(batch: { req: IncomingMessage; res: ServerResponse }[]) {
    // Every answer of the batch first, then every write: the handler's code and data stay in the CPU's caches across
    // the batch instead of being evicted by Node's write path and a syscall between each two requests (1.13x on the
    // field mix against writing each answer as it is made).
    const answers: (Answer | null)[] = [];
    handler.batch(() => {
      for (const { req } of batch) {
        // The handler never throws; if it ever did, that request's socket goes, not the rest of the batch.
        try {
          answers.push(answerOf(req));
        } catch {
          answers.push(null);
        }
      }
    });
    batch.forEach(({ res }, i) => {
      const answer = answers[i]!;
      try {
        if (answer === null) res.destroy();
        else if (answer.later) void answer.later.then((a) => writeLater(res, a));
        else write(res, answer);
      } catch {
        // A socket that broke mid-answer must not cost the rest of the batch theirs.
        res.destroy();
      }
    });
  }
  const trusted = trustedProxiesOf(opts.trustProxy);
  const addresses = new ClientAddresses(trusted);
  /** A refusal made here rather than by the handler, logged by the handler's request log like any other answer. */
  function refusal(request: Pick<RefusedRequest, 'method' | 'url'>, answer: Answer): Answer {
    handler.refused?.(answer, { ...request, started: performance.now() });
    return answer;
  }
  function answerOf(req: IncomingMessage): Answer {
    const request = new SocketRequest(req, addresses);
    const { headers } = request;
    if (headers.host === undefined && req.httpVersionMinor === 1)
      return refusal(request, bareProblem('bad_request', 'An HTTP/1.1 request needs a Host header.'));
    // No route takes a body: one declared is never read, the connection is closed rather than the body drained. A GET,
    // HEAD or OPTIONS with one is refused; any other method gets its 405 as without a body.
    if (headers['transfer-encoding'] !== undefined || (headers['content-length'] ?? '0') !== '0') {
      if (!READ_METHODS.has(request.method)) return withClose(handler.answer(request));
      return refusal(request, bareProblem('bad_request', 'This server takes no request body.'));
    }
    return handler.answer(request);
  }
  function withClose(answer: Answer): Answer {
    answer.headers.connection = 'close';
    return answer;
  }
  function writeLater(res: ServerResponse, answer: Answer) {
    // The client may have gone while its body was compressed: its socket is destroyed, and the answer goes nowhere.
    if (res.destroyed) return;
    try {
      write(res, answer);
    } catch {
      res.destroy();
    }
  }
  function write(res: ServerResponse, answer: Answer) {
    if (closing) answer.headers.connection = 'close';
    res.writeHead(answer.status, answer.headers);
    // Requests here carry no body (answerOf refuses one), so there is nothing to read or resume before answering.
    res.end(answer.body ?? undefined);
  }
  // Expectations other than 100-continue are ignored (RFC 9110 10.1.1 allows it) rather than refused with a bare 417.
  server.on('checkExpectation', onRequest);
  // 100-continue is never sent: its request declares a body, which answerOf refuses before the client sends it.
  server.on('checkContinue', onRequest);
  server.maxConnections = opts.maxConnections ?? MAX_CONNECTIONS;
  capPerAddress(server, opts.maxConnectionsPerAddress ?? MAX_CONNECTIONS_PER_ADDRESS, trusted);
  server.maxRequestsPerSocket = 0;
  // A client that half-closes after its request still gets an answer made later (compressed off the loop, held back):
  // by default Node ends such a socket at once. Node's own name for it (net's allowHalfOpen at the HTTP layer).
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  let closing = false;
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const answer =
      err.code === 'HPE_HEADER_OVERFLOW'
        ? bareProblem('headers_too_large', 'The request line and headers are larger than 16 KiB.')
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? bareProblem('request_timeout', 'The request took too long to arrive.')
          : bareProblem('bad_request', 'The request is not valid HTTP/1.1.');
    lastWords(socket, refusal(requestLineOf(err.rawPacket), answer));
  });
  // No proxying here: without this listener Node would drop a CONNECT without a word.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    const answer = bareProblem('method_not_allowed', 'CONNECT is not allowed here.', { allow: ALLOWED_METHODS });
    lastWords(socket, refusal({ method: 'CONNECT', url: req.url ?? null }, answer));
  });
  return new Promise((resolveStart, rejectStart) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      rejectStart(listenFailure(err, opts.host, opts.port, '--port/PORT')),
    );
    server.listen(opts.port, opts.host, () => {
      const { port } = server.address() as AddressInfo;
      if (typeof handlerFor === 'function')
        try {
          handler = handlerFor(port);
        } catch (err) {
          server.close();
          return rejectStart(err);
        }
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
              handler.close();
              flushLog();
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
