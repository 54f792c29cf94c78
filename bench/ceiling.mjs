// The ceiling: a bare node:http server answering one pre-captured answer (status, headers, bytes) from memory.
// Plain JavaScript run by plain `node` (no loader, no IPC channel): it does the least work possible per request, so it
// measures what Node itself costs. Usage: `node bench/ceiling.mjs ANSWER.json`; prints {"port":N} on stdout.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

/** { status, headers: [name, value, ...], body: base64 }, as bench/lib/servers.ts captured it from our server. */
const answer = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const { status, headers } = answer;
const bytes = Buffer.from(answer.body, 'base64');
const body = bytes.length > 0 ? bytes : undefined;

const server = createServer({ keepAliveTimeout: 5_000 }, (_req, res) => {
  res.writeHead(status, headers);
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () => process.exit(0)); // exits normally, so that --cpu-prof can write its profile
