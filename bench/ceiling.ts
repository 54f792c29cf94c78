// The ceiling: ours' captured answers replayed through ours' own transport (server/http/transport/server.ts, its
// batching included) by a handler that only looks each request up, so it measures what the transport and Node cost.
// Usage: `node --import tsx bench/ceiling.ts ANSWERS.json` (bench/lib/replay.ts writes it); prints {"port":N}, and
// {"misses":N} at SIGTERM: requests without a captured answer, answered 500.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JsonLog } from '../server/http/transport/log.ts';
import { startServer } from '../server/http/transport/server.ts';
import type { Answer, RequestHandler, RequestLike } from '../server/http/transport/answer.ts';

/** What chose ours' answer to a request: the ceiling looks answers up by it. */
export const keyOf = (method: string, url: string, h: Record<string, string | string[] | undefined>) =>
  `${method} ${url}\n${h['x-api-key'] ?? ''}\n${h['if-none-match'] ?? ''}\n${h['accept-encoding'] ?? ''}\n${h.origin ?? ''}`;

interface File {
  bodies: string[];
  answers: {
    request: { method: string; url: string; headers: Record<string, string> };
    status: number;
    headers: string[];
    body: number;
  }[];
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as File;
  const bodies = file.bodies.map((b) => Buffer.from(b, 'base64'));
  const answers = new Map<string, Answer>();
  for (const a of file.answers) {
    const headers: Record<string, string> = {};
    for (let i = 0; i < a.headers.length; i += 2) headers[a.headers[i]!] = a.headers[i + 1]!;
    const body = bodies[a.body]!;
    const answer = { status: a.status, headers, body: body.length > 0 ? body : null };
    answers.set(keyOf(a.request.method, a.request.url, a.request.headers), answer);
  }
  let misses = 0;
  const MISS = 'no answer was captured for this request\n';
  const handler: RequestHandler = Object.assign(
    (req: RequestLike): Answer =>
      answers.get(keyOf(req.method, req.url, req.headers)) ??
      (misses++, { status: 500, headers: { 'content-length': String(MISS.length) }, body: MISS }),
    { batch: (fn: () => void) => fn(), close: () => undefined },
  );
  process.on('SIGTERM', () => {
    process.stdout.write(`${JSON.stringify({ misses })}\n`, () => process.exit(0));
  });
  const running = await startServer(handler, new JsonLog(() => undefined), { host: '127.0.0.1', port: 0 });
  process.stdout.write(`${JSON.stringify({ port: running.port })}\n`);
}
