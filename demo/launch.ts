// Runs the demo as a child process: shared by `npm run screenshot` and the e2e test.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export interface RunningDemo {
  child: ChildProcess;
  /** The URLs the demo printed, by label ("Partner site" -> http://...). */
  urls: Record<string, string>;
  /** Everything it wrote so far. */
  output(): string;
  /** Ctrl-C: SIGINT to the demo server itself (through npm when started by npm), then its exit code and output. */
  stop(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string }>;
}

/**
 * Spawns `command args` (e.g. `npm start -- --db ...`) and resolves once the demo printed "Press Ctrl-C to stop.",
 * or rejects with its output when it exits first or takes longer than timeoutMs.
 */
export function startDemo(
  command: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunningDemo> {
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const demo: RunningDemo = {
    child,
    urls: {},
    output: () => output,
    stop: async (timeoutMs = 15_000) => {
      if (child.exitCode === null && child.signalCode === null) {
        // npm forwards no SIGINT to its script (only a terminal's Ctrl-C reaches the whole group): signal the server itself.
        // The deepest match: under npm, `sh -c "node bin/listings.js ..."` carries the same words as the server.
        const server =
          descendants(child.pid!)
            .filter((pid) => cmdline(pid).includes('listings.js'))
            .at(-1) ?? child.pid!;
        try {
          process.kill(server, 'SIGINT');
        } catch {
          // it has just exited by itself
        }
      }
      const timer = setTimeout(() => killTree(child.pid!), timeoutMs);
      const { code, signal } = await exited;
      clearTimeout(timer);
      return { code, signal, output };
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      killTree(child.pid!);
      reject(new Error(`the demo did not start within ${opts.timeoutMs ?? 120_000} ms:\n${output}`));
    }, opts.timeoutMs ?? 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('Press Ctrl-C to stop.')) return;
      clearTimeout(timer);
      for (const m of output.matchAll(/^ {2}(\S.*?)\s{2,}(https?:\/\/\S+)$/gm)) demo.urls[m[1]!] = m[2]!;
      child.stdout!.off('data', onData);
      child.stderr!.off('data', onData);
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      resolve(demo);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the demo exited (${signal ?? code}) before it was ready:\n${output}`));
    });
  });
}

/** SIGKILL for the child and everything below it: a stuck server must not outlive npm. */
function killTree(pid: number): void {
  for (const p of [...descendants(pid).reverse(), pid]) {
    try {
      process.kill(p, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Every process below pid, depth first (Linux /proc; elsewhere none, and the child itself gets the signal). */
function descendants(pid: number): number[] {
  const parents = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid ...": comm may contain spaces, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of parents.get(p) ?? []) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}
