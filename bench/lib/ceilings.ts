// The ceilings as child processes: plain node servers that replay answers ours captured, on the servers' core.
import type { ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CapturedAnswer } from './capture.ts';
import { REPO, spawnServer, stopper, type ServerProcess } from './servers.ts';

export interface Ceiling extends ServerProcess {
  /** Makes the running ceiling answer `answer` from now on (it reads the file again on SIGUSR2 and says so). */
  serve(answer: CapturedAnswer): Promise<void>;
}

/**
 * The ceiling, plain `node bench/ceiling.mjs`, answering exactly `answer` (status, headers, bytes) until serve() gives
 * it the next one: one process serves the scenarios of one server of ours in turn, with the same history as that server.
 */
export async function startCeiling(answer: CapturedAnswer): Promise<Ceiling> {
  const file = join(tmpdir(), `bench-ceiling-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(answer));
  const child = spawnServer([join(REPO, 'bench', 'ceiling.mjs'), file], ['ignore', 'pipe', 'ignore']);
  const printed = printedBy(child, 'ceiling');
  let loads = 1;
  const [m] = await printed(/\{"port":(\d+)\}/);
  return {
    name: 'ceiling',
    url: `http://127.0.0.1:${m[1]}`,
    pid: child.pid!,
    child,
    stop: async () => {
      await stopper(child)();
      rmSync(file, { force: true });
    },
    serve: async (next: CapturedAnswer) => {
      writeFileSync(file, JSON.stringify(next));
      loads++;
      child.kill('SIGUSR2');
      await printed(new RegExp(`\\{"answer":${loads}\\}`));
    },
  };
}

export interface CeilingMix extends ServerProcess {
  /** How many requests it had no captured answer for (it answered those 500). */
  misses(): Promise<number>;
}

/**
 * The field mix's ceiling, plain `node bench/ceiling-mix.mjs`, answering each request of the mix with ours' captured
 * answer to it (the file's format is described there).
 */
export async function startCeilingMix(file: string): Promise<CeilingMix> {
  const child = spawnServer([join(REPO, 'bench', 'ceiling-mix.mjs'), file], ['ignore', 'pipe', 'inherit']);
  const printed = printedBy(child, "the field mix's ceiling");
  let [m, read] = await printed(/\{"port":(\d+)\}/, 0);
  return {
    name: 'ceiling (replays the mix)',
    url: `http://127.0.0.1:${m[1]}`,
    pid: child.pid!,
    child,
    stop: stopper(child),
    misses: async () => {
      child.kill('SIGUSR2');
      [m, read] = await printed(/\{"misses":(\d+)\}/, read);
      return Number(m[1]);
    },
  };
}

/** What a ceiling prints, read as it comes: the first match of `re` after `from` and where it ends; rejects if it exits first. */
function printedBy(child: ChildProcess, name: string) {
  let stdout = '';
  const waiting = new Set<() => void>();
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d.toString();
    for (const check of waiting) check();
  });
  return (re: RegExp, from = 0) =>
    new Promise<[RegExpExecArray, number]>((resolve, reject) => {
      const check = () => {
        const m = re.exec(stdout.slice(from));
        if (!m) return;
        waiting.delete(check);
        child.off('exit', exited);
        resolve([m, from + m.index + m[0].length]);
      };
      const exited = (code: number | null) => {
        waiting.delete(check);
        reject(new Error(`${name} exited with ${code}`));
      };
      child.once('exit', exited);
      waiting.add(check);
      check();
    });
}
