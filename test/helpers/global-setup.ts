// Whole-run check: no server log captured by the fixtures holds any key the fixtures issued (contract: a key never appears in a log line).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CAPTURE_ENV, leakedKeys } from './capture.ts';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'listings-capture-'));
  // Set before any worker starts: test processes inherit it, and the fixtures record into this folder.
  process.env[CAPTURE_ENV] = dir;
  return () => {
    const files = readdirSync(dir);
    const keys = new Set(files.filter((f) => f.startsWith('keys-')).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean)));
    const leaks: string[] = [];
    let bytes = 0;
    for (const f of files.filter((name) => name.startsWith('logs-'))) {
      const text = readFileSync(join(dir, f), 'latin1');
      bytes += text.length;
      for (const key of leakedKeys(keys, text)) leaks.push(`${f}: key ...${key.slice(-4)}`);
    }
    rmSync(dir, { recursive: true, force: true });
    if (leaks.length > 0) {
      // A teardown that throws does not fail a vitest run; the exit code does.
      console.error(`\nKEY LEAK: ${leaks.length} issued key(s) found in captured server logs:\n  ${leaks.join('\n  ')}\n`);
      process.exitCode = 1;
    } else if (process.env.LISTINGS_TEST_FIGURES) {
      console.error(`key-leak check: ${keys.size} issued keys, none in ${(bytes / 1e6).toFixed(1)} MB of captured server logs`);
    }
  };
}
