// The panel's listener: the one file of the panel that touches sockets; everything else is the handler.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_IMPORT_BYTES } from '../domain/import.ts';
import { clientAddressOf } from '../http/transport/client-address.ts';
import { createPanelHandler, type PanelOptions } from './handler.ts';
import type { PanelRequest } from './http.ts';

/** Forms are small; only an upload may carry an import file (and its multipart framing). */
const FORM_BYTES = 64 * 1024;
const UPLOAD_BYTES = MAX_IMPORT_BYTES + FORM_BYTES;

export interface RunningPanel {
  url: string;
  server: Server;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer | undefined> {
  const limit = (req.headers['content-type'] ?? '').startsWith('multipart/form-data') ? UPLOAD_BYTES : FORM_BYTES;
  if (Number(req.headers['content-length'] ?? 0) > limit) return undefined;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Without an origin of its own (PANEL_URL), the panel's origin is the address it listens on. */
export async function startPanel(
  options: Omit<PanelOptions, 'origin'> & {
    origin?: PanelOptions['origin'];
    host: string;
    port: number;
    trustedProxies?: readonly string[];
  },
): Promise<RunningPanel> {
  // Filled in once the port is known, before the first request can come.
  const origin = options.origin ?? { origin: '', secure: false };
  const handle = createPanelHandler({ ...options, origin });
  const trusted = new Set(options.trustedProxies ?? []);
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req).catch(() => undefined);
    if (body === undefined) {
      res.writeHead(413, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' }).end('Too large.');
      return;
    }
    const request: PanelRequest = {
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers as Record<string, string | undefined>,
      body,
      address: clientAddressOf(req.socket.remoteAddress ?? '', req.headers['x-forwarded-for'], trusted),
    };
    const answer = await handle(request);
    res.writeHead(answer.status, answer.headers).end(request.method === 'HEAD' ? undefined : answer.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
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
