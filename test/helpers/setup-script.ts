// Runs tools/setup-test-deps.ts (npm test's pretest) as npm would, in a made-up machine: only the given variables set.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './fixture.ts';

export interface SetupRun {
  status: number | null;
  /** What it wrote to stderr, by line. */
  lines: string[];
  stdout: string;
  ms: number;
}

/** The script with exactly `env` (no DISPLAY, no *_PATH unless given), from the repository's root. */
export function runSetup(env: NodeJS.ProcessEnv): Promise<SetupRun> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', 'tools/setup-test-deps.ts'], {
    cwd: REPO,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) =>
      resolve({ status, lines: stderr.split('\n').filter(Boolean), stdout, ms: performance.now() - started }),
    );
  });
}

/** Every *_PATH the tests honour, pointing at nothing, and a PATH of one empty folder (no apt-get, no Xvfb). */
export function bareMachine(dir: string): NodeJS.ProcessEnv {
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  const nowhere = join(dir, 'nowhere');
  return {
    PATH: bin,
    HOME: dir,
    CHROME_PATH: join(nowhere, 'chromium'),
    FIREFOX_PATH: join(nowhere, 'firefox-esr'),
    WEBKIT_DRIVER_PATH: join(nowhere, 'WebKitWebDriver'),
    PGBOUNCER_PATH: join(nowhere, 'pgbouncer'),
  };
}

/** The command-line tools the tests and the docs' blocks run, found on PATH, in the order the script checks them. */
export const PATH_TOOLS = ['git', 'curl', 'sqlite3', 'psql', 'openssl', 'ps'];

/** The same machine with every program in place: each *_PATH at an executable, and those tools on its PATH. */
export function fullMachine(bare: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  for (const tool of PATH_TOOLS) writeScript(join(bare.PATH!, tool), 'exit 0');
  const present = process.execPath;
  return { ...bare, CHROME_PATH: present, FIREFOX_PATH: present, WEBKIT_DRIVER_PATH: present, PGBOUNCER_PATH: present };
}

/** An executable shell script at `file`. */
export function writeScript(file: string, body: string): string {
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}
