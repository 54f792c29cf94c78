// The ceiling as a child process (bench/ceiling.ts) on the servers' core, replaying answers ours captured.
import type { ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CapturedAnswer } from './capture.ts';
import type { BenchRequest } from './load.ts';
import { REPO, spawnServer, stopper, type ServerProcess } from './servers.ts';

/** A request and ours' answer to it. */
export interface Replayed {
  request: BenchRequest;
  answer: CapturedAnswer;
}

export interface Ceiling extends ServerProcess {
  /** Makes the running ceiling answer these from now on (it reads its file again on SIGUSR2 and says so). */
  serve(answers: Iterable<Replayed>): Promise<void>;
  /** How many requests it had no captured answer for (it answered those 500). */
  misses(): Promise<number>;
}

/** The request headers that chose ours' answer: the ceiling's key (bench/ceiling.ts, keyOf). */
const CHOOSING = ['x-api-key', 'if-none-match', 'accept-encoding', 'origin'];

/** The ceiling's file: each body once, and each answer with the request headers that chose it. */
function writeCeilingFile(file: string, replayed: Iterable<Replayed>) {
  const bodies: string[] = [];
  const bodyIndex = new Map<string, number>();
  const answers = [];
  for (const { request, answer } of replayed) {
    let body = bodyIndex.get(answer.body);
    if (body === undefined) bodyIndex.set(answer.body, (body = bodies.push(answer.body) - 1));
    const headers = Object.fromEntries(
      CHOOSING.flatMap((h) => (h in request.headers ? [[h, request.headers[h]]] : [])),
    );
    answers.push({
      request: { method: 'GET', url: request.path, headers },
      status: answer.status,
      headers: answer.headers,
      body,
    });
  }
  writeFileSync(file, JSON.stringify({ bodies, answers }));
}

/**
 * The ceiling answering `answers`: one process serves the scenarios of one server of ours in turn (serve() gives it
 * the next), so both carry the same history into each scenario; the field mix's serves the whole mix.
 */
export async function startCeiling(answers: Iterable<Replayed>): Promise<Ceiling> {
  const file = join(tmpdir(), `bench-ceiling-${process.pid}-${Math.random().toString(36).slice(2)}.json`);
  writeCeilingFile(file, answers);
  const child = spawnServer(
    ['--import', 'tsx', join(REPO, 'bench', 'ceiling.ts'), file],
    ['ignore', 'pipe', 'inherit'],
  );
  const printed = printedBy(child, 'ceiling');
  let [m, read] = await printed(/\{"port":(\d+)\}/);
  let loads = 1;
  const reload = async () => {
    child.kill('SIGUSR2');
    [m, read] = await printed(new RegExp(`\\{"loads":${++loads},"misses":(\\d+)\\}`), read);
    return Number(m[1]);
  };
  return {
    name: 'ceiling',
    url: `http://127.0.0.1:${m[1]}`,
    pid: child.pid!,
    child,
    stop: async () => {
      await stopper(child)();
      rmSync(file, { force: true });
    },
    serve: async (next) => {
      writeCeilingFile(file, next);
      await reload();
    },
    misses: reload,
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
