// The panel's listener: the one file of the panel that touches sockets; everything else is the handler.
import { listenFailure } from '../http/transport/listen-failure.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { clientAddressOf, trustedProxiesOf } from '../http/transport/client-address.ts';
import { capPerAddress } from '../http/transport/connection-cap.ts';
import { admissionOf } from './admission.ts';
import { formBody, uploadBody } from './body.ts';
import { failureAnswer } from './failure.ts';
import { createLogger } from '../logger.ts';
import { createPanelHandler, type PanelOptions } from './handler.ts';
import type { PanelRequestHead } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';

/**
 * A few operators use the panel: these bound what anyone else can hold open. An address (an IPv6 /64) keeps at most
 * `perAddress` connections, unless it is a trusted proxy, whose connections carry everybody's.
 */
export const PANEL_CONNECTIONS = { total: 256, perAddress: 32 };

/**
 * How long a request refused on its head waits for its answer, its body unread: a client that sends large bodies again
 * and again gets through one a second per connection instead of as fast as it can reconnect.
 */
export const REFUSAL_HOLD_MS = 1000;

export interface RunningPanel {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Without an origin of its own (PANEL_URL), the panel's origin is the address it listens on. */
export async function startPanel(
  options: Omit<PanelOptions, 'origin'> & {
    origin?: PanelOptions['origin'];
    host: string;
    port: number;
    trustedProxies?: readonly string[];
    /** The import route's cap (default: the largest import file and its form). */
    uploadBytes?: number;
    /** Where the port is chosen, named in the one line a port in use gives. */
    portOption?: string;
  },
): Promise<RunningPanel> {
  // Filled in once the port is known, before the first request can come.
  const origin = options.origin ?? { origin: '', secure: false };
  const logger = options.logger ?? createLogger().logger;
  const handler = createPanelHandler({ ...options, origin, logger });
  const trusted = trustedProxiesOf(options.trustedProxies);
  const server = createServer({
    headersTimeout: 10_000,
    // How often the head's timeout is checked: Node's 30 s default let a slow head run to 40 s.
    connectionsCheckingInterval: 1_000,
    // Bodies have deadlines of their own (body.ts), long for an upload only; a request without one ends at its headers.
    requestTimeout: 0,
    keepAliveTimeout: 5_000,
    maxHeaderSize: 16 * 1024,
  });

  async function serve(
    req: IncomingMessage,
    res: ServerResponse,
    expectsContinue: boolean,
    requestId: string,
  ): Promise<void> {
    const head: PanelRequestHead = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers as Record<string, string | undefined>,
      remoteAddress: clientAddressOf(req, trusted),
      requestId,
    };
    const admission = await admissionOf(head, { store: options.store, origin, uploadBytes: options.uploadBytes }).catch(
      (err: unknown) => ({ refusal: failureAnswer(err, logger, { ...head, requestId }) }),
    );
    // Refused on its head: the connection closes once the answer is out (Node then destroys it), the body unread.
    if ('refusal' in admission) {
      await delay(REFUSAL_HOLD_MS);
      return send(res, head.method, admission.refusal, true);
    }
    if (expectsContinue) res.writeContinue();
    if (!admission.upload) {
      const body = await formBody(req, admission.limit);
      if (body) send(res, head.method, await handler.answer({ ...head, body }));
      return;
    }
    const upload = await uploadBody(req, admission.limit, admission.fileTooLarge);
    if (!upload) return;
    // Refused part way: the rest of the body is not read, so the connection closes with the answer.
    if ('refusal' in upload) return send(res, head.method, upload.refusal, true);
    const answer = await handler.answer({ ...head, body: Buffer.alloc(0), upload }).finally(upload.remove);
    send(res, head.method, answer);
  }

  // A failure outside the handler (no room for an upload's file) answers 500, never ends the process.
  const serveSafely = (req: IncomingMessage, res: ServerResponse, expectsContinue: boolean) => {
    const requestId = randomUUID();
    res.setHeader('x-request-id', requestId); // on every answer, refusals before the handler included
    void serve(req, res, expectsContinue, requestId).catch((err: unknown) => {
      if (!res.headersSent) {
        const failed = { requestId, method: req.method ?? 'GET', url: req.url ?? '/' };
        send(res, failed.method, failureAnswer(err, logger, failed), true);
      } else res.destroy();
    });
  };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => serveSafely(req, res, false));
  // Expect: 100-continue is answered only once the head is admitted: a refused client never sends its body.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => serveSafely(req, res, true));
  server.maxConnections = PANEL_CONNECTIONS.total;
  capPerAddress(server, PANEL_CONNECTIONS.perAddress, trusted);

  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(listenFailure(err, options.host, options.port, options.portOption ?? '--port/PANEL_PORT')),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}`;
  if (!options.origin) origin.origin = url;
  return {
    url,
    server,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function send(res: ServerResponse, method: string, answer: Answer, close = false): void {
  if (res.destroyed) return;
  // An answer's Set-Cookie holds a cookie a line (http.ts, setCookies): each is a header of its own.
  const cookies = answer.headers['set-cookie']?.split('\n');
  const headers = {
    ...answer.headers,
    ...(close ? { connection: 'close' } : {}),
    ...(cookies && { 'set-cookie': cookies }),
  };
  res.writeHead(answer.status, headers).end(method === 'HEAD' ? undefined : (answer.body ?? undefined));
}
