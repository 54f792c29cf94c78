// The panel's import in a process of its own: the file read, checked and applied through a store connection of its
// own, as `listings import` does. The server's event loop answers the API meanwhile (a 10,000-listing file takes
// seconds to check and apply), and the file's memory is that process's, within its own limit: a file too large for it
// ends that process, never the server (a thread out of memory can take its whole process down).
import { readFileSync } from 'node:fs';
import { ListingsError } from '../errors.ts';
import { parseImport } from '../domain/import.ts';
import type { ImportSummary } from '../store/facilities.ts';
import { openStore } from '../store/store.ts';

/** What the process is given: the store to open, the uploaded file and its name, and who imports it. */
export interface ImportJob {
  location: string;
  path: string;
  filename: string;
  actor: string;
}

/** What it answers: the import's summary, the file's problems, or a failure the panel reports as any other. */
export type ImportResult =
  | { summary: ImportSummary }
  | { problems: readonly string[] }
  | { failure: { message: string; code: string | undefined } };

async function run(job: ImportJob): Promise<ImportResult> {
  try {
    const parsed = parseImport(readFileSync(job.path), job.filename);
    const store = await openStore(job.location, { mustExist: true });
    try {
      return { summary: await store.applyImport(parsed, job.actor) };
    } finally {
      await store.close();
    }
  } catch (err) {
    if (err instanceof ListingsError) return { problems: err.details.length > 0 ? err.details : [err.message] };
    const { message, code } = err as Error & { code?: unknown };
    return { failure: { message, code: typeof code === 'string' ? code : undefined } };
  }
}

// Started by fork(): the job comes over the IPC channel (never in argv, which `ps` shows: it names the database,
// password included), and the answer goes back the same way, then the process ends.
if (process.send)
  process.once('message', (job: ImportJob) => {
    void run(job).then((result) => process.send!(result, () => process.disconnect()));
  });
