// `listings snapshot withdraw` and `snapshot follow` as an operator and an aggregator type them: exit codes and one-line answers.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliInProcess } from './helpers/fixture.ts';
import { publishFixture } from './helpers/published.ts';
import { until } from './helpers/wait.ts';

let dir: string;
let cleanup: () => void;
let dbFile: string;
let keyFile: string;
const run = (...args: string[]) => cliInProcess(dbFile, args);
const out = () => join(dir, 'out');
const follow = (state = join(dir, 'mirror')) =>
  run('snapshot', 'follow', out(), '--keys', join(out(), 'keys.json'), '--state', state);

beforeAll(async () => {
  ({ dir, cleanup, dbFile, keyFile } = await publishFixture());
  expect((await run('snapshot', 'export', '--out', out(), '--signing-key', keyFile)).code).toBe(0);
});
afterAll(() => cleanup());

describe('snapshot withdraw and follow', () => {
  it('follows from the index, then withdraws and follows the feed', async () => {
    const first = await follow();
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(
      /^mirrored from the index: 4 facilities listed, 4 fetched, 0 withdrawn; cursor seq 4;/,
    );

    const withdrawn = await run('snapshot', 'withdraw', 'zrh-1', '--to', out(), '--signing-key', keyFile, '--json');
    expect(withdrawn.code).toBe(0);
    expect(JSON.parse(withdrawn.stdout)).toMatchObject({ facility: 'zrh-1', version: 2, first: true, feed_items: 1 });

    const second = await follow();
    expect(second.stdout).toMatch(
      /^mirrored from the feed: 3 facilities listed, 0 fetched, 1 withdrawn; cursor seq 5;/,
    );
    expect((await follow()).stdout).toMatch(/^unchanged: the feed is at seq 5/);

    // A publish then counts the withdrawn facility apart from the unchanged ones.
    const published = await run('snapshot', 'publish', '--to', out(), '--signing-key', keyFile);
    expect(published.stdout).toMatch(
      /^nothing to publish: 3 facilities are unchanged, signed by \S+ and fresh \(1 withdrawn, not published\);/,
    );

    // `snapshot verify` of the withdrawn facility: its signed tombstone, told as such rather than as malformed.
    const keys = join(out(), 'keys.json');
    const verified = await run('snapshot', 'verify', join(out(), 'zrh-1'), '--keys', keys, '--facility', 'zrh-1');
    expect(verified.code).toBe(1);
    expect(verified.stderr).toMatch(
      /: withdrawn: facility zrh-1 was withdrawn at \S+ \(version 2, a signed tombstone\)/,
    );
    const elsewhere = await run('snapshot', 'verify', join(out(), 'zrh-1'), '--keys', keys, '--facility', 'wro-1');
    expect(elsewhere.stderr).toMatch(/: facility_mismatch: this is the tombstone of facility zrh-1, not wro-1/);
  });

  it('verify given the index or a feed page names that file and says what it verifies', async () => {
    const keys = join(out(), 'keys.json');
    const index = await run('snapshot', 'verify', join(out(), 'index.json'), '--keys', keys);
    expect(index.code).toBe(1);
    expect(index.stderr).toBe(
      `error: ${join(out(), 'index.json')}: malformed: index.json is signed, but is a published folder's index, ` +
        "not a facility's snapshot: verify a facility's listings.json or its folder (OUT/<facility>)\n",
    );
    const page = await run('snapshot', 'verify', join(out(), 'changes', 'latest.json'), '--keys', keys);
    expect(page.code).toBe(1);
    expect(page.stderr).toMatch(
      /: malformed: latest\.json is signed, but is a page of the change feed, not a facility's/,
    );
  });

  it('verify refuses a tombstone below --min-version or past its expiry, as it refuses such a snapshot', async () => {
    const keys = join(out(), 'keys.json');
    const verify = (id: string, ...extra: string[]) =>
      run('snapshot', 'verify', join(out(), id), '--keys', keys, '--facility', id, ...extra);
    const withdraw = (id: string, ttl: string) =>
      run('snapshot', 'withdraw', id, '--to', out(), '--signing-key', keyFile, '--ttl', ttl);
    // A tombstone that holds for the whole test: its version alone is refused, however slow the machine.
    expect((await withdraw('krk-1', '1h')).code).toBe(0);
    const rollback = await verify('krk-1', '--min-version', '99');
    expect(rollback.code).toBe(1);
    expect(rollback.stderr).toMatch(/: rollback: version 2 is older than the minimum accepted version 99/);
    // One that expires at once.
    expect((await withdraw('ber-1', '1s')).code).toBe(0);
    const expired = await until('the tombstone to expire', async () => {
      const r = await verify('ber-1');
      return /: expired: /.test(r.stderr) && r;
    });
    expect(expired.code).toBe(1);
    expect(expired.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses to withdraw what the target does not hold, and a bad id, in one line', async () => {
    const unknown = await run('snapshot', 'withdraw', 'nowhere-1', '--to', out(), '--signing-key', keyFile);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(
      `error: facility "nowhere-1" has no snapshot on ${out()}: nothing to withdraw (publish it first, or check --to)\n`,
    );
    // A bad id is a usage error: the argument cannot be what it names.
    const bad = await run('snapshot', 'withdraw', 'Not_An_Id', '--to', out(), '--signing-key', keyFile);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: .*"Not_An_Id" is not a facility id \(1-64 characters of a-z, 0-9 or "-"\)\n$/);
  });

  it('exits 1 with one line naming the file that failed', async () => {
    const keys = join(dir, 'other-keys.json');
    writeFileSync(keys, '{"keys":[]}');
    const r = await run('snapshot', 'follow', out(), '--keys', keys, '--state', join(dir, 'other'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: changes\/latest\.json: unknown_kid: no key with kid \S+ in the keys file \(it has: none\)\n$/,
    );
  });
});
