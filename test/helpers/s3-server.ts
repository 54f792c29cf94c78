// A real S3-compatible server (s3rver) on loopback for the publish tests and bench, behind the SigV4 check s3rver lacks.
import { createHash, createHmac } from 'node:crypto';
import {
  Agent,
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { paginateListObjectsV2, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { SILENT_LOGGER } from '../../server/snapshots/targets/s3.ts';
import { tempDir } from './fixture.ts';
import { takeTurns } from '../../server/snapshots/publish/take-turns.ts';

export interface S3Server {
  /** http://127.0.0.1:PORT, path-style. */
  endpoint: string;
  port: number;
  bucket: string;
  /** s3rver's data folder, removed by stop(). */
  dir: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** For a spawned CLI: the credentials and a region, as the SDK's default chain reads them. */
  env: Record<string, string>;
  /** Plain-HTTP, path-style URL of an object (anonymous reads are served, as from a public bucket). */
  objectUrl(key: string): string;
  /** Every object key under `prefix` in the bucket, sorted. */
  keys(prefix?: string): Promise<string[]>;
  stop(): Promise<void>;
}

/** s3rver's only account. */
export const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const REGION = 'us-east-1';

/** Public reads from any origin (a partner's page fetches snapshots); ETag exposed for conditional re-fetches. */
const CORS = `<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod>
<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>`;

/** An SDK client for the server (or a proxy in front of it) with our credentials unless overridden. */
export function s3Client(endpoint: string, config: S3ClientConfig = {}): S3Client {
  // The SDK would otherwise warn on Node 20 that it will soon need Node 22.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  return new S3Client({
    endpoint,
    forcePathStyle: true,
    region: REGION,
    credentials: CREDENTIALS,
    logger: SILENT_LOGGER,
    ...config,
  });
}

/** An error answer as S3 writes one, so the SDK classifies it (and retries it or not) as it would against S3. */
export function sendS3Error(res: ServerResponse, status: number, code: string, message: string): void {
  if (res.destroyed || res.headersSent) return;
  const body = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;
  res.writeHead(status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** `port`: the one a client was already pointed at (default: any free one). */
export async function startS3(opts: { bucket?: string; cors?: boolean; port?: number } = {}): Promise<S3Server> {
  const bucket = opts.bucket ?? 'listings';
  const { dir, cleanup } = tempDir('s3rver-');
  const s3rver = new S3rver({
    directory: dir,
    silent: true,
    configureBuckets: [{ name: bucket, configs: opts.cors ? [CORS] : [] }],
  });
  await s3rver.configureBuckets();
  // s3rver listens on an inner port; the outer server checks signatures and gives S3's atomic PUT (see relay()).
  const inner = createServer(s3rver.callback());
  await listen(inner);
  const store = new Agent({ keepAlive: true });
  const turns = takeTurns();
  const relayTo = (inner.address() as AddressInfo).port;
  const server = createServer((req, res) => {
    const fault = signatureFault(req);
    if (fault) sendS3Error(res, 403, fault, 'signature check failed');
    else void relay(req, res, { port: relayTo, agent: store, turns });
  });
  await listen(server, opts.port);
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = s3Client(endpoint);
  return {
    endpoint,
    port,
    bucket,
    dir,
    credentials: { ...CREDENTIALS },
    env: {
      AWS_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      AWS_REGION: REGION,
    },
    objectUrl: (key) => `${endpoint}/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`,
    async keys(prefix = '') {
      const keys: string[] = [];
      for await (const page of paginateListObjectsV2({ client }, { Bucket: bucket, Prefix: prefix })) {
        for (const object of page.Contents ?? []) keys.push(object.Key!);
      }
      return keys.sort();
    },
    async stop() {
      client.destroy();
      store.destroy();
      for (const s of [server, inner]) {
        const closed = new Promise((resolve) => s.close(resolve));
        s.closeAllConnections();
        await closed;
      }
      cleanup();
    },
  };
}

function listen(server: Server, port = 0): Promise<void> {
  return new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
}

/** Hop-by-hop headers, and Expect: the outer server has already answered 100-continue. */
const NOT_RELAYED = new Set(['connection', 'keep-alive', 'transfer-encoding', 'expect']);

function relayed(headers: IncomingHttpHeaders, length: number | undefined): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!NOT_RELAYED.has(name)) out[name] = value;
  if (length !== undefined && out['content-length'] === undefined) out['content-length'] = length;
  return out;
}

/**
 * S3 stores an object only once its whole body has arrived, and a read sees the old object or the new one, never part
 * of one. s3rver 3.7.1 does neither: its putObject (lib/stores/filesystem.js) truncates the object's file when a PUT
 * starts and writes the body as it streams in, so a publisher killed mid-body left a truncated pointer behind for
 * good, and a read during a write could see an empty file. So here the body is read whole before s3rver sees it (an
 * aborted request never reaches the store), and requests for one path take turns, each to its last byte.
 */
async function relay(
  req: IncomingMessage,
  res: ServerResponse,
  to: { port: number; agent: Agent; turns: ReturnType<typeof takeTurns> },
): Promise<void> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of req) chunks.push(chunk as Buffer);
  } catch {
    return; // the client went away mid-body: nothing reaches the store
  }
  if (!req.complete) return;
  const body = Buffer.concat(chunks);
  const path = (req.url ?? '/').split('?')[0]!;
  try {
    const answer = await to.turns(path, () => forward(req, body, to));
    if (res.destroyed) return;
    const head = req.method === 'HEAD' || answer.status === 304 || answer.status === 204;
    res.writeHead(answer.status, relayed(answer.headers, head ? undefined : answer.body.length));
    res.end(answer.body);
  } catch (err) {
    sendS3Error(res, 500, 'InternalError', `test store relay: ${(err as Error).message}`);
  }
}

function forward(
  req: IncomingMessage,
  body: Buffer,
  to: { port: number; agent: Agent },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const out = request(
      {
        host: '127.0.0.1',
        port: to.port,
        agent: to.agent,
        method: req.method,
        path: req.url,
        headers: relayed(req.headers, body.length),
      },
      (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () =>
          resolve({ status: answer.statusCode!, headers: answer.headers, body: Buffer.concat(parts) }),
        );
        answer.on('error', reject);
      },
    );
    out.on('error', reject);
    out.end(body);
  });
}

/**
 * The S3 error code for a header-signed (SigV4) request whose signature is not ours, else undefined. s3rver 3.7.1 checks
 * only the access key id of a SigV4 request ("Signature version 4 calculation is unimplemented" in its
 * lib/middleware/authentication.js): without this a wrong secret would be accepted, where S3 answers 403. Unsigned
 * requests pass (s3rver serves anonymous reads); the payload hash is taken as the client declared it.
 */
function signatureFault(req: IncomingMessage): string | undefined {
  const auth = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/([^,]+), ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]+)$/.exec(
    req.headers.authorization ?? '',
  );
  if (!auth) return undefined;
  const [, accessKeyId, scope, signedHeaders, signature] = auth as unknown as [string, string, string, string, string];
  if (accessKeyId !== CREDENTIALS.accessKeyId) return 'InvalidAccessKeyId';
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const canonical = [
    req.method,
    q < 0 ? url : url.slice(0, q), // S3 signs the path as sent, without normalizing or encoding it again
    q < 0 ? '' : canonicalQuery(url.slice(q + 1)),
    signedHeaders
      .split(';')
      .map(
        (name) =>
          `${name}:${String(req.headers[name] ?? '')
            .trim()
            .replace(/\s+/g, ' ')}\n`,
      )
      .join(''),
    signedHeaders,
    req.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    req.headers['x-amz-date'],
    scope,
    createHash('sha256').update(canonical).digest('hex'),
  ].join('\n');
  const key = scope
    .split('/')
    .reduce<Buffer | string>(
      (k, part) => createHmac('sha256', k).update(part).digest(),
      `AWS4${CREDENTIALS.secretAccessKey}`,
    );
  return createHmac('sha256', key).update(stringToSign).digest('hex') === signature
    ? undefined
    : 'SignatureDoesNotMatch';
}

function decoded(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s; // malformed escapes: the signature will not match, which is the answer such a request deserves
  }
}

/** SigV4's query form: every name and value decoded, then encoded strictly (RFC 3986), sorted by name then value. */
function canonicalQuery(query: string): string {
  const strict = (s: string) =>
    encodeURIComponent(decoded(s)).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? [strict(pair), ''] : [strict(pair.slice(0, eq)), strict(pair.slice(eq + 1))];
    })
    .sort(([a = '', x = ''], [b = '', y = '']) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}
