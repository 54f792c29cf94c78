// The ceiling: ours' captured answers replayed through ours' own transport (server/http/transport/server.ts, its
// batching included) by a handler that only looks each request up, so it measures what the transport and Node cost.
// Usage: `node --import tsx bench/ceiling.ts ANSWERS.json`; prints {"port":N}. ANSWERS.json (bench/lib/ceilings.ts
// writes it): { "bodies": [base64, ...], "answers": [{ "request": { "method", "url", "headers": {lowercase: value} },
// "status", "headers": [name, value, ...], "body": index into bodies }] }. A request without a captured answer gets a
// 500 and is counted. On SIGUSR2 it reads the file again and prints {"loads":N,"misses":M}.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { JsonLog } from '../server/http/transport/log.ts';
import { startServer } from '../server/http/transport/server.ts';
import type { Answer, RequestHandler, RequestLike } from '../server/http/transport/answer.ts';

/** What chose ours' answer to a request: the ceiling looks answers up by it (bench/lib/field-mix.ts uses it too). */
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

function load(path: string): Map<string, Answer> {
  const file = JSON.parse(readFileSync(path, 'utf8')) as File;
  const bodies = file.bodies.map((b) => Buffer.from(b, 'base64'));
  const answers = new Map<string, Answer>();
  for (const a of file.answers) {
    const headers: Record<string, string> = {};
    for (let i = 0; i < a.headers.length; i += 2) headers[a.headers[i]!] = a.headers[i + 1]!;
    const body = bodies[a.body]!;
    answers.set(keyOf(a.request.method, a.request.url, a.request.headers), {
      status: a.status,
      headers,
      body: body.length > 0 ? body : null,
    });
  }
  return answers;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = process.argv[2]!;
  let answers = load(path);
  let [loads, misses] = [1, 0];
  const MISS_BODY = 'no answer was captured for this request\n';
  const handler: RequestHandler = Object.assign(
    (req: RequestLike): Answer =>
      answers.get(keyOf(req.method, req.url, req.headers)) ??
      (misses++, { status: 500, headers: { 'content-length': String(MISS_BODY.length) }, body: MISS_BODY }),
    { batch: (fn: () => void) => fn(), close: () => undefined },
  );
  // Listeners first: the bench may signal as soon as it reads the port, before this process runs another line.
  process.on('SIGUSR2', () => {
    answers = load(path);
    process.stdout.write(`${JSON.stringify({ loads: ++loads, misses })}\n`);
  });
  process.on('SIGTERM', () => process.exit(0)); // exits normally, so that --cpu-prof can write its profile
  const running = await startServer(handler, new JsonLog(() => undefined), { host: '127.0.0.1', port: 0 });
  process.stdout.write(`${JSON.stringify({ port: running.port })}\n`);
}
