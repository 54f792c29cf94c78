// Ctrl-C at the hidden password prompt, on a real terminal (python3's pty module): the command stops with exit 130 and
// a plain "interrupted", as an interrupted command does, and adds no account.
import { spawnSync } from 'node:child_process';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { BIN, cliInProcess, demoDb, REPO, tempDir } from './helpers/fixture.ts';

/** Runs the binary on a pty, waits for `prompt`, types `keys`, and reports its output and exit code as JSON. */
const ON_A_PTY = `
import json, os, pty, select, sys, time
node, script, prompt, keys, *args = sys.argv[1:]
pid, fd = pty.fork()
if pid == 0:
    os.execv(node, [node, script, *args])
out, typed, deadline = b'', False, time.monotonic() + 30
while time.monotonic() < deadline:
    if not typed and prompt.encode() in out:
        os.write(fd, keys.encode())
        typed = True
    ready, _, _ = select.select([fd], [], [], 0.2)
    if not ready:
        continue
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
else:
    os.kill(pid, 9)
_, status = os.waitpid(pid, 0)
print(json.dumps({'code': os.waitstatus_to_exitcode(status), 'out': out.decode('utf8', 'replace'), 'typed': typed}))
`;

function onAPty(args: string[], prompt: string, keys: string, env: NodeJS.ProcessEnv) {
  const r = spawnSync('python3', ['-c', ON_A_PTY, process.execPath, BIN, prompt, keys, ...args], {
    cwd: REPO,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { code: number; out: string; typed: boolean };
}

let dir: ReturnType<typeof tempDir>;
let file: string;
beforeEach(() => {
  dir = tempDir();
  const demo = demoDb(dir.dir);
  file = demo.file;
  demo.db.close();
});
afterEach(() => dir.cleanup());

it('Ctrl-C at the password prompt of operators add: exit 130, "interrupted", no account', async () => {
  const r = onAPty(['operators', 'add', 'ops@example.com'], 'New password: ', '\u0003', { LISTINGS_DB: file });
  expect(r.typed).toBe(true);
  expect(r.code).toBe(130);
  expect(r.out.replace(/\r/g, '').trimEnd().split('\n').slice(-1)).toEqual(['interrupted']);
  expect(r.out).not.toContain('unexpected failure');
  const listed = await cliInProcess(file, ['operators', 'list', '--json']);
  expect(JSON.parse(listed.stdout)).toEqual([]);
}, 60_000);
