// npm test's pretest (tools/setup-test-deps.ts): a line per missing program where it may not install, apt-get where it may.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/fixture.ts';
import { bareMachine, PATH_TOOLS, fullMachine, runSetup, writeScript } from './helpers/setup-script.ts';

let cleanup = () => {};
afterEach(() => cleanup());
function machine() {
  const temp = tempDir('listings-setup-');
  cleanup = temp.cleanup;
  return { dir: temp.dir, env: bareMachine(temp.dir) };
}

/** The program each line of the script's output names, in order. */
const named = (lines: string[]) => lines.map((line) => /^setup: (.+?) is missing/.exec(line)?.[1] ?? line);

describe('npm test on a machine without the programs', () => {
  it('names each missing program once, with its package and variable, and fails', async () => {
    const { env } = machine();
    const run = await runSetup(env);
    expect(run.status).toBe(1);
    expect(named(run.lines)).toEqual([
      'Chromium',
      'Firefox ESR',
      "WebKitGTK's WebDriver",
      'PgBouncer',
      'Xvfb',
      ...PATH_TOOLS,
    ]);
    const expected = [
      ['apt-get install -y chromium', 'CHROME_PATH'],
      ['apt-get install -y firefox-esr', 'FIREFOX_PATH'],
      ['apt-get install -y webkit2gtk-driver', 'WEBKIT_DRIVER_PATH'],
      ['apt-get install -y pgbouncer', 'PGBOUNCER_PATH'],
      ['apt-get install -y xvfb', 'DISPLAY'],
      ['apt-get install -y git'],
      ['apt-get install -y curl'],
      ['apt-get install -y sqlite3'],
      ['apt-get install -y postgresql-client'],
      ['apt-get install -y openssl'],
      ['apt-get install -y procps'],
    ];
    run.lines.forEach((line, i) => expected[i]!.forEach((part) => expect(line).toContain(part)));
    expect(run.stdout).toBe('');
  });

  it('needs no Xvfb with a display, and says nothing when every program is there', async () => {
    const { env } = machine();
    const run = await runSetup({ ...fullMachine(env), DISPLAY: ':99' });
    expect({ status: run.status, lines: run.lines }).toEqual({ status: 0, lines: [] });
  });
});

// As root with apt-get on PATH the script installs; a stand-in apt-get records its calls and puts Xvfb on PATH.
describe.skipIf(process.getuid?.() !== 0)('npm test as root with apt-get', () => {
  function withAptGet(installs: boolean) {
    const { dir, env } = machine();
    const bin = env.PATH!;
    const calls = join(dir, 'apt-calls');
    const install = installs ? `printf '#!/bin/sh\\n' > ${bin}/Xvfb; /bin/chmod 755 ${bin}/Xvfb` : 'exit 100';
    writeScript(join(bin, 'apt-get'), `echo "$*" >> ${calls}\ncase "$1" in install) ${install} ;; esac`);
    return { env: fullMachine(env), calls: () => (existsSync(calls) ? readFileSync(calls, 'utf8') : ''), bin };
  }

  it('installs what is missing, one line per package, and goes on', async () => {
    const { env, calls, bin } = withAptGet(true);
    const run = await runSetup(env);
    expect(run.lines).toEqual(['setup: installing xvfb (Xvfb, for the WebKit browser tests)']);
    expect(run.status).toBe(0);
    expect(calls()).toBe('update -qq\ninstall -y -qq xvfb\n');
    expect(existsSync(join(bin, 'Xvfb'))).toBe(true);
  });

  it('stops with the missing line when apt-get cannot install it', async () => {
    const { env } = withAptGet(false);
    const run = await runSetup(env);
    expect(run.status).toBe(1);
    expect(named(run.lines.filter((line) => !line.includes('apt-get install -y -qq xvfb failed')))).toEqual([
      'setup: installing xvfb (Xvfb, for the WebKit browser tests)',
      'Xvfb',
    ]);
  });

  it('never installs over a path the user chose', async () => {
    const { env, calls } = withAptGet(true);
    const run = await runSetup({ ...env, PGBOUNCER_PATH: join(env.HOME!, 'nowhere', 'pgbouncer') });
    expect(run.status).toBe(1);
    expect(calls()).toBe('update -qq\ninstall -y -qq xvfb\n');
    expect(named(run.lines)).toEqual(['setup: installing xvfb (Xvfb, for the WebKit browser tests)', 'PgBouncer']);
  });
});
