// A request's body read within its cap and its time: into memory for a form, into a temporary file for an upload.
import { mkdtemp, open, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Time to send a form's body, and an upload's (256 MB at 4 Mbit/s takes about 9 minutes). */
export const FORM_BODY_MS = 10_000;
export const UPLOAD_BODY_MS = 15 * 60_000;

/**
 * Hands each chunk to `take`, the next read waiting for it; false once the body passes `limit` or time runs out: the
 * connection is ended then, and the rest is never read.
 */
async function eachChunk(
  req: IncomingMessage,
  limit: number,
  ms: number,
  take: (chunk: Buffer) => unknown,
): Promise<boolean> {
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
      if (total > limit) return false;
      await take(chunk);
    }
    return !late;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    if (total > limit) socket.destroy();
  }
}

export async function formBody(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  return (await eachChunk(req, limit, FORM_BODY_MS, (c) => chunks.push(c))) ? Buffer.concat(chunks) : undefined;
}

/** An upload in a temporary file of its own, with the function that removes it; undefined when it was not all sent. */
export async function uploadBody(
  req: IncomingMessage,
  limit: number,
): Promise<{ file: string; remove: () => Promise<void> } | undefined> {
  const dir = await mkdtemp(join(tmpdir(), 'listings-upload-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  const file = join(dir, 'body');
  const out = await open(file, 'w', 0o600);
  try {
    if (await eachChunk(req, limit, UPLOAD_BODY_MS, (c) => out.write(c))) return { file, remove };
  } finally {
    await out.close();
  }
  await remove();
  return undefined;
}
