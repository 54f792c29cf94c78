// Before the run: dist/ current with the sources. After it: no server log captured by the fixtures holds any key the fixtures issued (contract: a key never appears in a log line).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../../tools/build.ts';
import { CAPTURE_ENV, leakedKeys } from './capture.ts';

/**
 * Hands a file to `scan` in whole lines, 16 MB at a time (a soak's log is over 500 MB, more than one string may hold;
 * a key cannot span lines). Returns the file's size. Asynchronous, so that vitest keeps handling its workers' exits
 * meanwhile: a scan that blocked for more than its teardownTimeout (10 s) made it report "Timeout terminating forks
 * worker" for whichever test file had finished last.
 */
async function scanLines(file: string, scan: (text: string) => void): Promise<number> {
  const handle = await open(file, 'r');
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  let carry = '';
  let total = 0;
  try {
    for (let n; (n = (await handle.read(chunk, 0, chunk.length, null)).bytesRead) > 0;) {
      total += n;
      const text = carry + chunk.toString('latin1', 0, n);
      const cut = text.lastIndexOf('\n') + 1;
      scan(text.slice(0, cut));
      carry = text.slice(cut);
    }
    scan(carry);
  } finally {
    await handle.close();
  }
  return total;
}

export default function setup(): () => Promise<void> {
  // Tests run the compiled `listings` binary and the built widget: build them if the sources changed since.
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'listings-capture-'));
  // Set before any worker starts: test processes inherit it, and the fixtures record into this folder.
  process.env[CAPTURE_ENV] = dir;
  return async () => {
    const files = readdirSync(dir);
    const keys = new Set(
      files
        .filter((f) => f.startsWith('keys-'))
        .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean)),
    );
    const leaks: string[] = [];
    let bytes = 0;
    for (const f of files.filter((name) => name.startsWith('logs-'))) {
      const found = new Set<string>();
      bytes += await scanLines(join(dir, f), (text) => leakedKeys(keys, text).forEach((key) => found.add(key)));
      for (const key of found) leaks.push(`${f}: key ...${key.slice(-4)}`);
    }
    rmSync(dir, { recursive: true, force: true });
    if (leaks.length > 0) {
      // A teardown that throws does not fail a vitest run; the exit code does.
      console.error(
        `\nKEY LEAK: ${leaks.length} issued key(s) found in captured server logs:\n  ${leaks.join('\n  ')}\n`,
      );
      process.exitCode = 1;
    } else if (process.env.LISTINGS_TEST_FIGURES) {
      console.error(
        `key-leak check: ${keys.size} issued keys, none in ${(bytes / 1e6).toFixed(1)} MB of captured server logs`,
      );
    }
  };
}
