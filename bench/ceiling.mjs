// The ceiling: a bare node:http server answering one pre-captured answer (status, headers, bytes) from memory.
// Plain JavaScript run by plain `node` (no loader, no IPC channel): it does the least work possible per request, so it
// measures what Node itself costs. Usage: `node bench/ceiling.mjs ANSWER.json`; prints {"port":N} on stdout. The bench
// runs it with the V8 flags that `listings serve` runs with (server/node-flags.ts), as it runs every server.
// On SIGUSR2 it reads ANSWER.json again and prints {"answer":N} (N counts the loads): one ceiling process serves the
// scenarios of one server of ours in turn, as that server does, so both carry the same history into each scenario.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { setImmediate } from 'node:timers';

let status, headers, body;
let loads = 0;
function load() {
  /** { status, headers: [name, value, ...], body: base64 }, as bench/lib/capture.ts captured it from our server. */
  const answer = JSON.parse(readFileSync(process.argv[2], 'utf8'));
  const bytes = Buffer.from(answer.body, 'base64');
  status = answer.status;
  headers = answer.headers;
  body = bytes.length > 0 ? bytes : undefined;
  loads++;
}
load();

// Answers in batches, as our server does (server/http/transport/server.ts): every request parsed in one turn of the
// event loop is answered after the poll phase, from setImmediate. That is Node doing less work, not API work, and a
// ceiling that writes each answer at once does more of it than our server, so it would be no ceiling.
let pending = [];
function answerPending() {
  const batch = pending;
  pending = [];
  for (const res of batch) {
    res.writeHead(status, headers);
    res.end(body);
  }
}
const server = createServer({ keepAliveTimeout: 5_000 }, (_req, res) => {
  if (pending.push(res) === 1) setImmediate(answerPending);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGUSR2', () => {
  load();
  process.stdout.write(`${JSON.stringify({ answer: loads })}\n`);
});
process.on('SIGTERM', () => process.exit(0)); // exits normally, so that --cpu-prof can write its profile
