// The ceiling: a bare node:http server answering one pre-captured answer (status, headers, bytes) from memory.
// It does the least work possible per request, so it measures what Node itself costs; the parent switches the answer
// over IPC between scenarios.
import { createServer, type OutgoingHttpHeader } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CapturedAnswer {
  status: number;
  /** Flat [name, value, name, value, ...] as our server sent them, minus what Node adds itself (Date, Connection, Keep-Alive). */
  headers: string[];
  body: string; // base64
}

let status = 200;
let headers: OutgoingHttpHeader[] = [];
let body: Buffer | undefined;

const server = createServer({ keepAliveTimeout: 5_000 }, (_req, res) => {
  res.writeHead(status, headers);
  res.end(body);
});

process.on('message', (m: CapturedAnswer) => {
  status = m.status;
  headers = m.headers;
  const bytes = Buffer.from(m.body, 'base64');
  body = bytes.length > 0 ? bytes : undefined;
  process.send!('ok');
});

server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  process.send!({ port: (server.address() as AddressInfo).port });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0)); // exits normally, so that --cpu-prof can write its profile
