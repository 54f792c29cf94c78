// The Import action: the CLI's validation (every problem with its JSON path) and the store's all-or-nothing import.
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { ListingsError } from '../errors.ts';
import { parseImport } from '../domain/import.ts';
import { csrfValid } from './auth.ts';
import type { PanelContext } from './context.ts';
import { plain, type PanelRequest, type Upload } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { importPage, importTooLargePage } from './import-page.ts';
import type { ImportOutcome } from './pages/import.ts';
import { receiveUpload, UPLOAD_LIMITS } from './upload.ts';

/** The import being parsed and applied; the next waits for it, so one file at a time is in memory. */
let turn: Promise<unknown> = Promise.resolve();

export function importRoute(c: PanelContext, req: PanelRequest): Promise<Answer> {
  const run = turn.then(() => importNow(c, req));
  turn = run.catch(() => undefined);
  return run;
}

/** Over a socket the upload is already received; in process its body goes through the same parser here. */
async function importNow(c: PanelContext, req: PanelRequest): Promise<Answer> {
  if (req.upload) return importOf(c, req.upload);
  const upload = await receiveUpload(Readable.from([req.body]), req.headers['content-type'], UPLOAD_LIMITS, (name) =>
    importTooLargePage(c.tx, c.who, name),
  );
  if ('refusal' in upload) return upload.refusal;
  return importOf(c, upload).finally(upload.remove);
}

async function importOf(c: PanelContext, upload: Upload): Promise<Answer> {
  if (!csrfValid(upload.fields.get('csrf'), c.who.session))
    return plain(403, 'Refused: the form is out of date; reload the page.');
  const file = upload.file?.field === 'file' ? upload.file : undefined;
  if (!file) return plain(400, 'Choose a file to import.');
  const page = (outcome: ImportOutcome, status = 200) => importPage(c.tx, c.who, outcome, status);
  try {
    const parsed = parseImport(await readFile(file.path), file.filename || 'upload');
    return page({ summary: await c.store.applyImport(parsed, c.who.operator.email) });
  } catch (err) {
    if (!(err instanceof ListingsError)) throw err;
    return page({ problems: err.details.length > 0 ? err.details : [err.message] }, 422);
  }
}
