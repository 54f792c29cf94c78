// One bash that commands are pasted into one at a time, as into a terminal: its variables, functions and folder carry
// from one command to the next, and each command's exit status and output come back. Servers run as background jobs.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from './wait.ts';

export interface Ran {
  status: number;
  output: string;
  /** What bash itself said while reading the command (`!x: event not found`, a syntax error). */
  shell: string;
}

export interface Job {
  /** Its process group: bash runs each background job in a group of its own (set -m). */
  pgid: number;
  log: () => string;
}

/**
 * A shell started with `env` only, in `cwd`. It runs as an interactive shell reads pasted text: history expansion on
 * (`!` in double quotes), and unset variables are errors (set -u), so that a block leaning on a variable it does not
 * set fails here rather than run with an empty value.
 */
export class ShellSession {
  private readonly bash: ChildProcess;
  private readonly stderrFile: string;
  private readonly stderrFd: number;
  private stderrSeen = 0;
  private statusLines: string[] = [];
  private waiting: { resolve: (line: string) => void; reject: (error: Error) => void } | undefined;
  private count = 0;
  private exited: string | undefined;

  constructor(
    cwd: string,
    env: NodeJS.ProcessEnv,
    private readonly workDir: string,
  ) {
    this.stderrFile = join(workDir, 'bash-stderr');
    this.stderrFd = openSync(this.stderrFile, 'w');
    this.bash = spawn('bash', ['--norc', '--noprofile', '-s'], {
      cwd,
      env,
      stdio: ['pipe', 'ignore', this.stderrFd, 'pipe'],
    });
    let text = '';
    this.bash.stdio[3]!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      for (let nl; (nl = text.indexOf('\n')) >= 0; text = text.slice(nl + 1)) this.statusLines.push(text.slice(0, nl));
      this.deliver();
    });
    // A shell that has exited says so through `exited`; writing to it then must not throw as well.
    this.bash.stdin!.on('error', () => {});
    this.bash.once('exit', () => {
      this.exited = `the shell exited: ${this.shellSaid()}`;
      this.waiting?.reject(new Error(this.exited));
    });
    this.bash.stdin!.write('set -o history -H -u -m\n');
  }

  private deliver(): void {
    if (this.waiting && this.statusLines.length > 0) {
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve(this.statusLines.shift()!);
    }
  }

  private nextStatus(timeoutMs: number, what: string): Promise<string> {
    return new Promise((resolve, reject) => {
      if (this.exited) return reject(new Error(`${what}: ${this.exited}`));
      const timer = setTimeout(() => {
        this.waiting = undefined;
        reject(
          new Error(`${what}: no exit after ${timeoutMs} ms (waiting for input, or a server not in the background)`),
        );
      }, timeoutMs);
      const done = () => clearTimeout(timer);
      this.waiting = {
        resolve: (line) => (done(), resolve(line)),
        reject: (error) => (done(), reject(new Error(`${what}: ${error.message}`))),
      };
      this.deliver();
    });
  }

  /** What bash wrote on its own stderr since the last look, but for its notes on jobs ("[1]+  Interrupt  ..."). */
  private shellSaid(): string {
    const all = readFileSync(this.stderrFile, 'utf8');
    const fresh = all.slice(this.stderrSeen);
    this.stderrSeen = all.length;
    return fresh
      .split('\n')
      .filter((line) => line.trim() !== '' && !/^\[\d+\][+-]?\s/.test(line))
      .join('\n');
  }

  /** Pastes `command` and waits for it to finish; stdin is empty, as for a command pasted with the lines after it. */
  async run(command: string, timeoutMs = 60_000): Promise<Ran> {
    const out = join(this.workDir, `out-${++this.count}`);
    this.bash.stdin!.write(`{\n${command}\n} >${out} 2>&1 </dev/null\necho "$?" >&3\n`);
    const status = Number(await this.nextStatus(timeoutMs, command));
    return { status, output: readFileSync(out, 'utf8'), shell: this.shellSaid() };
  }

  /** Pastes `command` as a background job (a server in a terminal of its own) and returns at once. */
  async start(command: string): Promise<Job & { shell: string }> {
    const log = join(this.workDir, `job-${++this.count}`);
    // Made here: the job opens it in a process of its own, which may not have run yet when its id comes back.
    writeFileSync(log, '');
    this.bash.stdin!.write(`{\n${command}\n} >${log} 2>&1 </dev/null &\necho "$!" >&3\n`);
    const pgid = Number(await this.nextStatus(10_000, command));
    return { pgid, log: () => readFileSync(log, 'utf8'), shell: this.shellSaid() };
  }

  async close(): Promise<void> {
    if (!this.exited) {
      const exited = new Promise((resolve) => this.bash.once('exit', resolve));
      this.bash.stdin!.end('exit\n');
      await exited;
    }
    closeSync(this.stderrFd);
  }
}

function alive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until the job has printed its URL on `port` (what a reader waits for before the next command: the demo prints
 * it once its keys are written) and answers HTTP there; fails at once when the job has exited.
 */
export async function untilServing(job: Job, port: number): Promise<void> {
  await until(
    `a server printing its URL on port ${port}`,
    async () => {
      if (!alive(job.pgid)) throw new Error(`it exited: ${job.log().slice(-2000)}`);
      if (!job.log().includes(`http://127.0.0.1:${port}`)) return false;
      try {
        await fetch(`http://127.0.0.1:${port}/`, { redirect: 'manual' }).then((res) => res.body?.cancel());
        return true;
      } catch {
        return false;
      }
    },
    { everyMs: 100, timeoutMs: 60_000 },
  );
}

/** Ctrl-C in the job's terminal: SIGINT to its group, then waits until every process of it has gone. */
export async function stopJob(job: Job): Promise<void> {
  if (!alive(job.pgid)) return;
  process.kill(-job.pgid, 'SIGINT');
  await until(`job ${job.pgid} to exit`, () => !alive(job.pgid), { everyMs: 50, timeoutMs: 20_000 });
}
