// `--facility ID` naming no facility is bad data (exit 1, naming it, as `keys create` does), not an empty answer, in
// `keys list` and `referrals`, on either store; a facility that exists but has nothing to show still exits 0.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_BAD_INPUT, runCli } from '../cli/program.ts';
import { bufferIo, DEMO_DATA } from './helpers/fixture.ts';
import { usePostgres } from './helpers/postgres.ts';
import { BACKENDS } from './helpers/setup.ts';

const postgres = usePostgres();

const FILTERED = [
  ['keys', 'list'],
  ['keys', 'list', '--json'],
  ['referrals'],
  ['referrals', '--csv'],
  ['referrals', '--json', '--by', 'ref'],
];

describe.each(BACKENDS)('on %s', (backend) => {
  it('keys list and referrals exit 1 for an unknown facility, and 0 for a known one without rows', async () => {
    const location =
      backend === 'sqlite' ? join(postgres.dir(), 'unknown-facility.db') : await postgres.server().newDatabase();
    const run = async (args: string[]) => {
      const io = bufferIo({ LISTINGS_DB: location });
      return { code: await runCli(args, io), stdout: io.stdout(), stderr: io.stderr() };
    };
    expect((await run(['import', DEMO_DATA])).code).toBe(0);
    for (const args of FILTERED) {
      const unknown = await run([...args, '--facility', 'nope']);
      expect(unknown.code, args.join(' ')).toBe(EXIT_BAD_INPUT);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr.trim()).toBe('error: facility "nope" does not exist: import it first');
      expect((await run([...args, '--facility', 'wro-1'])).code, args.join(' ')).toBe(0);
    }
  });
});
