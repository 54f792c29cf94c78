// The ceiling: ours' captured answers (ANSWERS.json, from bench/lib/replay.ts) replayed through ours' own transport by
// a handler that only looks each request up; prints {"port":N}, and at SIGTERM {"misses":N} (requests answered 500).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer } from '../server/http/transport/server.ts';
import type { Answer, RequestHandler, RequestLike } from '../server/http/transport/answer.ts';

/** What chose ours' answer to a request: the ceiling looks answers up by it. */
export const keyOf = (method: string, url: string, h: Record<string, string | string[] | undefined>) =>
  `${method} ${url}\n${h['x-api-key'] ?? ''}\n${h['if-none-match'] ?? ''}\n${h['accept-encoding'] ?? ''}\n${h.origin ?? ''}`;

/** ANSWERS.json: each body once (base64), and each answer as [key, status, [name, value, ...], body's index]. */
type File = { bodies: string[]; answers: [string, number, string[], number][] };

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const file = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as File;
  const bodies = file.bodies.map((b) => Buffer.from(b, 'base64'));
  const answers = new Map<string, Answer>();
  for (const [key, status, flat, body] of file.answers) {
    const headers = Object.fromEntries(flat.flatMap((name, i) => (i % 2 ? [] : [[name, flat[i + 1]!]])));
    answers.set(key, { status, headers, body: bodies[body]!.length > 0 ? bodies[body]! : null });
  }
  let misses = 0;
  const MISS = 'no answer was captured for this request\n';
  const handler: RequestHandler = {
    answer: (req: RequestLike): Answer =>
      answers.get(keyOf(req.method, req.url, req.headers)) ??
      (misses++, { status: 500, headers: { 'content-length': String(MISS.length) }, body: MISS }),
    batch: (fn: () => void) => fn(),
    close: () => undefined,
  };
  process.on('SIGTERM', () => {
    process.stdout.write(`${JSON.stringify({ misses })}\n`, () => process.exit(0));
  });
  const running = await startServer(handler, () => undefined, { host: '127.0.0.1', port: 0 });
  process.stdout.write(`${JSON.stringify({ port: running.port })}\n`);
}
