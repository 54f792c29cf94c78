// A request's body read within its cap and its time: into memory for a form, through the upload parser for an upload.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { receiveUpload, UPLOAD_LIMITS } from './upload.ts';
import type { Answer } from '../http/transport/answer.ts';

/** Time to send a form's body, and an upload's (256 MB at 4 Mbit/s takes about 9 minutes). */
export const FORM_BODY_MS = 10_000;
export const UPLOAD_BODY_MS = 15 * 60_000;

/** A body cut off: past its cap or its time, or ended by its client. Its connection is ended, nothing answered. */
class BodyCut extends Error {
  override name = 'BodyCut';
}

/** The body's chunks within `limit` bytes and `ms`; past either the connection ends, the rest never read. */
async function* chunksWithin(req: IncomingMessage, limit: number, ms: number): AsyncGenerator<Buffer> {
  // Its connection, ended by hand: a destroyed request may have let go of it already, leaving it open and read.
  const socket = req.socket;
  let late = false;
  const timer = setTimeout(() => {
    late = true;
    socket.destroy();
  }, ms);
  let total = 0;
  try {
    for await (const chunk of req as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > limit) break;
      yield chunk;
    }
  } catch {
    throw new BodyCut('the body ended early');
  } finally {
    clearTimeout(timer);
    if (total > limit) socket.destroy();
  }
  if (total > limit || late) throw new BodyCut(late ? 'the body took too long' : 'the body passed its cap');
}

/** Undefined for a body cut off. */
export async function formBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of chunksWithin(req, limit, FORM_BODY_MS)) chunks.push(chunk);
  } catch (err) {
    if (err instanceof BodyCut) return undefined;
    throw err;
  }
  return Buffer.concat(chunks);
}

/** An upload streamed in within `limit` bytes and an upload's time, or the answer refusing it; undefined if cut off. */
export async function uploadBody(
  req: IncomingMessage,
  limit: number,
  fileTooLarge?: (filename: string) => Answer,
): Promise<Awaited<ReturnType<typeof receiveUpload>> | undefined> {
  try {
    const body = Readable.from(chunksWithin(req, limit, UPLOAD_BODY_MS));
    return await receiveUpload(body, req.headers['content-type'], UPLOAD_LIMITS, fileTooLarge);
  } catch (err) {
    if (err instanceof BodyCut) return undefined;
    throw err;
  }
}
