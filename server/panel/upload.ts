// An upload form (multipart/form-data) streamed through busboy: its one file into a temporary file, its few small
// fields into memory, each within a cap set before the first byte; nothing of it left behind when it is refused.
import busboy from 'busboy';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_IMPORT_BYTES } from '../domain/import.ts';
import { tooLarge } from './admission.ts';
import { plain, type Upload } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';

/**
 * One file of at most an import's size, and a form token beside it: room for a few short fields, nothing more.
 * `fileSize` is the most bytes a file may have, as `listings import` counts them.
 */
export const UPLOAD_LIMITS = {
  files: 1,
  fileSize: MAX_IMPORT_BYTES,
  fields: 4,
  fieldSize: 1024,
  fieldNameSize: 100,
  parts: 5,
  headerPairs: 8,
} as const;

const malformed = (): Answer => plain(400, 'Refused: send the form as the Import page does: one file.');

/**
 * The upload `body` carries, or the answer refusing it: 413 past a cap (`fileTooLarge`'s for the file's), 400 for anything but a well-formed form with
 * at most one file. An error of `body` itself (cut off) or of writing the file (no room) is thrown; either way the
 * temporary file is gone.
 */
export async function receiveUpload(
  body: Readable,
  contentType: string | undefined,
  limits: busboy.Limits = UPLOAD_LIMITS,
  fileTooLarge: (filename: string) => Answer = tooLarge,
): Promise<Upload | { refusal: Answer }> {
  const dir = await mkdtemp(join(tmpdir(), 'listings-upload-'));
  const remove = () => rm(dir, { recursive: true, force: true });
  let refusal: (() => Answer) | undefined;
  const refuse = (answer: () => Answer) => (refusal ??= answer);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      limits: busboyLimits(limits),
      defParamCharset: 'utf8',
    });
  } catch {
    body.destroy();
    await remove();
    return { refusal: malformed() };
  }
  // An error of the body itself (cut off) or of writing the file (no room) is thrown, never taken for a bad form.
  let failure: unknown;
  body.once('error', (err) => (failure ??= err));
  const fields = new Map<string, string>();
  let file: Upload['file'];
  const writes: Promise<unknown>[] = [];
  parser.on('field', (name, value, info) => {
    if (info.nameTruncated || info.valueTruncated) refuse(tooLarge);
    fields.set(name, value);
  });
  parser.on('file', (field, stream, info) => {
    file = { field, filename: info.filename ?? '', path: join(dir, 'file') };
    const out = createWriteStream(file.path, { mode: 0o600 });
    out.once('error', (err) => {
      failure ??= err;
      parser.destroy(err);
    });
    // The part's own end (a broken form) closes the file without an error of the file's.
    stream.once('error', () => out.destroy());
    stream.once('limit', () => refuse(() => fileTooLarge(info.filename ?? '')));
    writes.push(new Promise<void>((closed) => out.once('close', () => closed())));
    stream.pipe(out);
  });
  for (const limit of ['filesLimit', 'fieldsLimit', 'partsLimit'] as const) parser.on(limit, () => refuse(malformed));
  parser.once('error', () => refuse(malformed));
  await pipeline(body, parser).catch((err: unknown) => {
    if (!refusal) failure ??= err;
  });
  await Promise.all(writes);
  if (failure === undefined && !refusal) return { fields, file, remove };
  await remove();
  if (failure !== undefined) throw failure;
  return { refusal: refusal!() };
}

/** Busboy flags a file that reaches its `fileSize`; a file of exactly the most allowed is taken, one byte more is not. */
function busboyLimits(limits: busboy.Limits): busboy.Limits {
  return limits.fileSize === undefined ? limits : { ...limits, fileSize: limits.fileSize + 1 };
}
