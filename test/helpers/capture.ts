// Records every key the fixtures issue and every server log they capture, so the run's global teardown can prove no log holds a key.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

/** Set by test/helpers/global-setup.ts for the whole run; unset (nothing recorded) when fixtures are used outside vitest. */
export const CAPTURE_ENV = 'LISTINGS_TEST_CAPTURE_DIR';

/** Any prefix, as KEY_PREFIX allows: `<prefix>_live_` + 32 characters. */
const KEY_SHAPE = /[a-z][a-z0-9]{0,15}_live_[A-Za-z0-9]{32}/g;
/** A key's secret part, 32 letters and digits, can only hide inside a run of at least 32 of them. */
const LONG_RUN = /[A-Za-z0-9]{32,}/g;

function fileFor(kind: 'keys' | 'logs', name = ''): string | undefined {
  const dir = process.env[CAPTURE_ENV];
  return dir ? join(dir, `${kind}-${process.pid}${name ? `-${name}` : ''}.txt`) : undefined;
}

export function recordKey(key: string): void {
  const file = fileFor('keys');
  if (file) appendFileSync(file, `${key}\n`);
}

/** Keys printed by the CLI (`keys create`), wherever they are in its output. */
export function recordKeysIn(text: string): void {
  for (const m of text.matchAll(KEY_SHAPE)) recordKey(m[0]);
}

/** Server log text (request logs, stderr) as the fixtures received it. */
export function recordLog(text: string): void {
  const file = fileFor('logs');
  if (file) appendFileSync(file, text.endsWith('\n') ? text : `${text}\n`);
}

/** A file a server child may write its log to directly (long runs), scanned at teardown; undefined when not capturing. */
export function logFileFor(name: string): string | undefined {
  return fileFor('logs', name);
}

/** The issued keys whose secret part (the 32 characters after `_live_`) appears anywhere in the text, prefix or not. */
export function leakedKeys(keys: Iterable<string>, text: string): string[] {
  const secrets = new Map<string, string>();
  for (const k of keys) secrets.set(k.slice(-32), k);
  const leaked = new Set<string>();
  for (const [run] of text.matchAll(LONG_RUN)) {
    for (const [secret, key] of secrets) if (run.includes(secret)) leaked.add(key);
  }
  return [...leaked];
}
