// A reader that closes the pipe early (`listings --help | head -1`) ends the command quietly: no stack trace for EPIPE.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIN, cli, DEMO_DATA, REPO, tempDir } from './helpers/fixture.ts';

let tmp: ReturnType<typeof tempDir>;
let db: string;
beforeAll(() => {
  tmp = tempDir('listings-pipe-');
  db = `${tmp.dir}/listings.db`;
  expect(cli(['--db', db, 'import', DEMO_DATA]).status).toBe(0);
});
afterAll(() => tmp.cleanup());

/** Runs the binary with its standard output's reading end closed before it writes anything. */
function withClosedStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

it.each(['--help', '--db <db> facilities list', '--db <db> keys list'])(
  'listings %s into a closed pipe exits 0 without a word',
  async (line) => {
    const r = await withClosedStdout(line.split(' ').map((a) => (a === '<db>' ? db : a)));
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  },
);
