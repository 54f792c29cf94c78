// A request body sent over a bare socket for as long as the server takes it: how a test sees a server refuse a body,
// answer before it, or end the connection part way.
import { openSocket, parseReply, type RawReply } from './raw-http.ts';
import { until } from './wait.ts';

export interface SendOptions {
  /** Chunked framing instead of the Content-Length the head declares. */
  chunked?: boolean;
  /** Send no body byte before an answer has come: a server that waits for the body never answers (the wait fails). */
  answerFirst?: boolean;
}

export interface Sent {
  /** The answer, if one came before the connection ended. */
  reply?: RawReply;
  /** Body bytes written before the connection ended. */
  written: number;
}

/** Sends a request head, then body bytes in 64 KB writes, up to `bodyBytes`, until the connection ends. */
export async function sendBody(
  port: number,
  requestHead: string,
  bodyBytes: number,
  opts: SendOptions = {},
): Promise<Sent> {
  const socket = await openSocket(port);
  const received: Buffer[] = [];
  let ended = false;
  socket.on('data', (d: Buffer) => received.push(d));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      ended = true;
      resolve();
    }),
  );
  socket.write(requestHead);
  if (opts.answerFirst)
    await until('an answer before any of the body', () => received.length > 0 || ended, { timeoutMs: 10_000 });
  const piece = Buffer.alloc(64 * 1024, 'a');
  const frame = opts.chunked
    ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
    : piece;
  let written = 0;
  while (!ended && written < bodyBytes) {
    written += piece.length;
    // Wait for the kernel to take each write, so that `written` is what the server could have read.
    if (!socket.write(frame)) await new Promise<void>((r) => socket.once('drain', r).once('close', r));
    await new Promise((r) => setImmediate(r));
  }
  socket.end();
  await closed;
  const all = Buffer.concat(received);
  return { written, reply: all.length > 0 ? parseReply(all) : undefined };
}
