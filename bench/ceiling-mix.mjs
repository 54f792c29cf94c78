// The field mix's ceiling: a bare node:http server that answers each request of the mix with our server's captured
// answer to it, looked up in a Map by what chose that answer (method, URL, X-API-Key, If-None-Match, Accept-Encoding,
// Origin). Plain JavaScript run by plain `node`, like bench/ceiling.mjs, and batching its writes as ours does; it does
// no work per request beyond that lookup, which ours does too in its own way (it reads the same headers).
// Usage: `node bench/ceiling-mix.mjs ANSWERS.json`; prints {"port":N} on stdout. ANSWERS.json:
// { "bodies": [base64, ...], "answers": [{ "request": { "method", "url", "headers": {lowercase: value} },
//   "status", "headers": [name, value, ...], "body": index into bodies }] }.
// A request it has no answer for gets a 500 and is counted; on SIGUSR2 it prints {"misses":N}.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { setImmediate } from 'node:timers';

const keyOf = (method, url, h) =>
  `${method} ${url}\n${h['x-api-key'] ?? ''}\n${h['if-none-match'] ?? ''}\n${h['accept-encoding'] ?? ''}\n${h.origin ?? ''}`;

const file = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const bodies = file.bodies.map((b) => {
  const bytes = Buffer.from(b, 'base64');
  return bytes.length > 0 ? bytes : undefined;
});
const answers = new Map();
for (const a of file.answers)
  answers.set(keyOf(a.request.method, a.request.url, a.request.headers), {
    status: a.status,
    headers: a.headers,
    body: bodies[a.body],
  });
const MISS_BODY = Buffer.from('no answer was captured for this request\n');
const MISS = { status: 500, headers: ['content-length', String(MISS_BODY.length)], body: MISS_BODY };
let misses = 0;

// Answers in batches from setImmediate, as our server and bench/ceiling.mjs do (see there why).
let pending = [];
let chosen = [];
function answerPending() {
  const batch = pending;
  const which = chosen;
  pending = [];
  chosen = [];
  for (let i = 0; i < batch.length; i++) {
    const a = which[i];
    batch[i].writeHead(a.status, a.headers);
    batch[i].end(a.body);
  }
}
const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
  let answer = answers.get(keyOf(req.method, req.url, req.headers));
  if (answer === undefined) {
    misses++;
    answer = MISS;
  }
  chosen.push(answer);
  if (pending.push(res) === 1) setImmediate(answerPending);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGUSR2', () => process.stdout.write(`${JSON.stringify({ misses })}\n`));
process.on('SIGTERM', () => process.exit(0));
