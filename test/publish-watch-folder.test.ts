// `snapshot publish --watch` to a folder: a round that cannot write (a file blocked, the folder away for a moment) is
// one line on stderr and is retried, as a failing store is, and the change lands once the folder is back.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, REPO, cliAsync, demoJson, writeJson } from './helpers/fixture.ts';
import { publishFixture } from './helpers/published.ts';
import { until } from './helpers/wait.ts';

let dir: string;
let cleanup: () => void;
let dbFile: string;
let keyFile: string;

beforeAll(async () => {
  ({ dir, cleanup, dbFile, keyFile } = await publishFixture());
});
afterAll(() => cleanup());

/** An import of the demo data with one price of wro-1 changed, by the real CLI in another process. */
async function importPrice(gross: number) {
  const data = demoJson();
  data.facilities[0].listings.find((l: { code: string }) => l.code === 'M-07').price_gross = gross;
  const r = await cliAsync(['import', writeJson(dir, `import-${gross}.json`, data), '--db', dbFile]);
  expect(r.status).toBe(0);
}

/** The version wro-1's pointer names, or undefined while it cannot be read. */
function pointerVersion(out: string): number | undefined {
  try {
    return (JSON.parse(readFileSync(join(out, 'wro-1', 'listings.json'), 'utf8')) as { version: number }).version;
  } catch {
    return undefined;
  }
}

describe('snapshot publish --watch to a folder', { timeout: 90_000 }, () => {
  it('reports a round that cannot write in one line, retries it, and publishes once the folder is writable', async () => {
    const out = join(dir, 'public');
    const args = ['snapshot', 'publish', '--db', dbFile, '--to', out, '--signing-key', keyFile, '--watch'];
    args.push('--public-url', 'https://listings.example.com');
    const watcher = spawn(process.execPath, [BIN, ...args], { cwd: REPO, stdio: 'pipe' });
    const text = { stdout: '', stderr: '' };
    watcher.stdout.on('data', (d: Buffer) => (text.stdout += d.toString()));
    watcher.stderr.on('data', (d: Buffer) => (text.stderr += d.toString()));
    const failures = () => text.stderr.match(/ publish failed, retrying in \d+ s: /g)?.length ?? 0;
    const running = () => {
      if (watcher.exitCode !== null) throw new Error(`the watch exited ${watcher.exitCode}: ${text.stderr}`);
    };
    try {
      await until('the first publish', () => (running(), /published .*wro-1 v1/.test(text.stdout)));

      // A withdraw meanwhile is refused with what to do: the watch holds the folder until it is stopped.
      const withdraw = await cliAsync([
        'snapshot',
        'withdraw',
        'wro-1',
        '--db',
        dbFile,
        '--to',
        out,
        '--signing-key',
        keyFile,
      ]);
      expect(withdraw.status).toBe(1);
      expect(withdraw.stderr).toContain(`held by a --watch publisher (process ${watcher.pid})`);

      // The pointer's .sig cannot be renamed into place: a directory holds its name.
      const sig = join(out, 'wro-1', 'listings.json.sig');
      rmSync(sig);
      mkdirSync(join(sig, 'blocker'), { recursive: true });
      await importPrice(41_000);
      await until('a failed round', () => (running(), failures() >= 1));
      rmSync(sig, { recursive: true });
      const second = await until(
        'wro-1 published again',
        () => (running(), (pointerVersion(out) ?? 0) > 1 && pointerVersion(out)),
      );

      // The whole folder away for a moment (a mount gone), then back.
      const away = `${out}.away`;
      renameSync(out, away);
      const before = failures();
      await importPrice(42_000);
      await until('a failed round while the folder is away', () => (running(), failures() > before));
      renameSync(away, out);
      await until('wro-1 published once the folder is back', () => (running(), (pointerVersion(out) ?? 0) > second));

      // Each failed round is one line naming what it could not write; nothing else went to stderr.
      const lines = text.stderr.trimEnd().split('\n');
      expect(lines[0]).toMatch(/^watching for changes/);
      const retries = lines.slice(1);
      expect(retries.length).toBe(failures());
      for (const line of retries)
        expect(line).toMatch(/ publish failed, retrying in \d+ s: \/.+: cannot write: E[A-Z]+$/);
    } finally {
      watcher.kill('SIGTERM');
    }
    const code = await new Promise<number | null>((resolve) =>
      watcher.exitCode !== null ? resolve(watcher.exitCode) : watcher.once('exit', resolve),
    );
    expect(code).toBe(0);
  });
});
