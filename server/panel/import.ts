// The Import action: the CLI's validation (every problem with its JSON path) and the store's all-or-nothing import, run in
// a process of its own (import-worker.ts).
import { Readable } from 'node:stream';
import { fork } from 'node:child_process';
import { csrfValid } from './auth.ts';
import type { PanelContext } from './context.ts';
import { plain, type PanelRequest, type Upload } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { importPage, importTooLargePage } from './import-page.ts';
import type { ImportOutcome } from './pages/import.ts';
import { receiveUpload, UPLOAD_LIMITS } from './upload.ts';
import type { ImportJob, ImportResult } from './import-worker.ts';

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
  const result = await importInProcess({
    location: c.store.connectionString(),
    path: file.path,
    filename: file.filename || 'upload',
    actor: c.who.operator.email,
  });
  if ('summary' in result) return page({ summary: result.summary });
  if ('problems' in result) return page({ problems: result.problems }, 422);
  // Reported as a failure of the panel's own (a database locked by another writer, one gone away).
  throw Object.assign(new Error(result.failure.message), { code: result.failure.code });
}

/**
 * The import's module: the compiled one beside this one in the bundle, or, run from the sources (the tests), the one
 * the build made from them (a process started from here does not get the test runner's TypeScript loader).
 */
const WORKER = import.meta.url.endsWith('.ts')
  ? new URL('../../dist/server/import-worker.mjs', import.meta.url)
  : new URL('./import-worker.mjs', import.meta.url);

/** The most heap an import's process may take: a file of the largest size allowed (256 MB) fits; more fails alone. */
export const IMPORT_HEAP_MB = 4096;

/** What is kept of the process's standard error: the end says whether it ran out of memory. */
const STDERR_KEPT = 4096;

/** Runs the import in its process; one that runs out of memory is a problem of the file, said so. */
export function importInProcess(job: ImportJob, heapMb = IMPORT_HEAP_MB): Promise<ImportResult> {
  return new Promise((resolve) => {
    // A process group of its own: a Ctrl-C to the server's group stops the server, which waits for the import to end,
    // not the import half-way.
    const child = fork(WORKER, [], {
      execArgv: [`--max-old-space-size=${heapMb}`],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      detached: true,
    });
    child.send(job);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-STDERR_KEPT)));
    let answered = false;
    child.once('message', (result: ImportResult) => {
      answered = true;
      resolve(result);
    });
    child.once('error', (err: Error & { code?: string }) =>
      resolve({ failure: { message: err.message, code: err.code } }),
    );
    child.once('close', (code, signal) => {
      if (answered) return;
      resolve(
        /heap out of memory/.test(stderr)
          ? {
              problems: [
                `the file needs more than ${heapMb} MB of memory to check: import it with \`listings import\`, or in several files; nothing was changed`,
              ],
            }
          : {
              failure: {
                message: `the import's process ended (${signal ?? `exit code ${code}`}) without an answer`,
                code: undefined,
              },
            },
      );
    });
  });
}
