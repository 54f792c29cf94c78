// The Import action: the CLI's validation (every problem with its JSON path) and the store's all-or-nothing import.
import { readFile } from 'node:fs/promises';
import { ListingsError } from '../errors.ts';
import { parseImport } from '../domain/import.ts';
import { csrfValid } from './auth.ts';
import type { PanelContext } from './context.ts';
import { htmlAnswer, plain, type PanelRequest, type PanelResponse } from './http.ts';
import { partsOf } from './multipart.ts';
import { importBody, type ImportOutcome } from './pages/import.ts';
import { panelPage } from './pages/layout.ts';

/** The import being parsed and applied; the next waits for it, so one file at a time is in memory. */
let turn: Promise<unknown> = Promise.resolve();

export function importRoute(c: PanelContext, req: PanelRequest): Promise<PanelResponse> {
  const run = turn.then(() => importNow(c, req));
  turn = run.catch(() => undefined);
  return run;
}

async function importNow(c: PanelContext, req: PanelRequest): Promise<PanelResponse> {
  const body = req.upload === undefined ? req.body : await readFile(req.upload);
  const parts = partsOf(req.headers['content-type'], body);
  const field = (name: string) => parts.find((p) => p.name === name);
  if (!csrfValid(field('csrf')?.data.toString('utf8'), c.who.session))
    return plain(403, 'Refused: the form is out of date; reload the page.');
  const file = field('file');
  if (!file) return plain(400, 'Choose a file to import.');
  const page = (outcome: ImportOutcome, status = 200) =>
    htmlAnswer(panelPage(c.tx, c.tx.t.import, importBody(c.tx, c.who, outcome), c.who), status);
  try {
    const parsed = parseImport(file.data, file.filename || 'upload');
    return page({ summary: await c.store.applyImport(parsed, c.who.operator.email) });
  } catch (err) {
    if (!(err instanceof ListingsError)) throw err;
    return page({ problems: err.details.length > 0 ? err.details : [err.message] }, 422);
  }
}
