// `keys list` shows the rate and burst each key really gets: the server default, marked, for a key without its own.
import { describe, expect, it } from 'vitest';
import { DEFAULT_KEY_LIMIT } from '../server/domain/keys.ts';
import { cliInProcess, DEMO_DATA, dbPathEachTest } from './helpers/fixture.ts';
import { call } from './helpers/http.ts';
import { handlerOver } from './helpers/inject.ts';

let dbFile: string;
dbPathEachTest((t) => (dbFile = t.file));

async function run(args: string[]) {
  const { code, stdout, stderr } = await cliInProcess(dbFile, args);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return stdout;
}

interface KeyJson {
  key?: string;
  id: string;
  label: string;
  rate_per_s: number | null;
  burst: number | null;
  effective_rate_per_s: number;
  effective_burst: number;
}

/** The demo data and three keys of wro-1: on the default, with its own rate and burst, with its own rate only. */
async function threeKeys(): Promise<Record<'onDefault' | 'own' | 'rateOnly', KeyJson>> {
  await run(['import', DEMO_DATA]);
  const create = async (...args: string[]) =>
    JSON.parse(await run(['keys', 'create', '--facility', 'wro-1', '--json', ...args])) as KeyJson;
  return {
    onDefault: await create('--label', 'on-default'),
    own: await create('--label', 'own', '--rate', '20/s', '--burst', '40'),
    rateOnly: await create('--label', 'rate-only', '--rate', '90/min'),
  };
}

describe('keys list', () => {
  it('--json keeps the stored limits (null on the default) and adds the effective ones', async () => {
    const keys = await threeKeys();
    const rows = JSON.parse(await run(['keys', 'list', '--json'])) as KeyJson[];
    const byLabel = new Map(rows.map((r) => [r.label, r]));
    expect(Object.keys(rows[0]!)).toEqual(
      expect.arrayContaining([
        'id',
        'facility_id',
        'label',
        'hint',
        'created_at',
        'revoked_at',
        'last_used_at',
        'rate_per_s',
        'burst',
        'allowed_origins',
      ]),
    );
    expect(byLabel.get('on-default')).toMatchObject({
      id: keys.onDefault.id,
      rate_per_s: null,
      burst: null,
      effective_rate_per_s: DEFAULT_KEY_LIMIT.rate,
      effective_burst: DEFAULT_KEY_LIMIT.burst,
    });
    expect(byLabel.get('own')).toMatchObject({
      id: keys.own.id,
      rate_per_s: 20,
      burst: 40,
      effective_rate_per_s: 20,
      effective_burst: 40,
    });
    expect(byLabel.get('rate-only')).toMatchObject({
      id: keys.rateOnly.id,
      rate_per_s: 1.5,
      burst: null,
      effective_rate_per_s: 1.5,
      effective_burst: 8,
    });
    // create prints the same fields
    expect(keys.onDefault).toMatchObject({
      effective_rate_per_s: DEFAULT_KEY_LIMIT.rate,
      effective_burst: DEFAULT_KEY_LIMIT.burst,
    });
  });

  it("the table shows the default values, marked as default, and a key's own values unmarked", async () => {
    const keys = await threeKeys();
    const [header, ...lines] = (await run(['keys', 'list'])).trimEnd().split('\n');
    expect(header).toMatch(/\bRATE\s+BURST\b/);
    const rowOf = (id: string) => lines.find((l) => l.startsWith(id))!;
    expect(rowOf(keys.onDefault.id)).toContain(
      `${DEFAULT_KEY_LIMIT.rate}/s (default)  ${DEFAULT_KEY_LIMIT.burst} (default)`,
    );
    expect(rowOf(keys.own.id)).toMatch(/\s20\/s\s+40\s/);
    expect(rowOf(keys.own.id)).not.toContain('(default)');
    expect(rowOf(keys.rateOnly.id)).toMatch(/\s90\/min\s+8 \(from rate\)/);
  });

  it('the effective limits are the ones the server applies (its RateLimit-Policy)', async () => {
    const keys = await threeKeys();
    const rows = JSON.parse(await run(['keys', 'list', '--json'])) as KeyJson[];
    const handler = handlerOver(dbFile, { defaultLimit: DEFAULT_KEY_LIMIT });
    try {
      for (const created of Object.values(keys)) {
        const row = rows.find((r) => r.id === created.id)!;
        const res = await call(handler, '/external/listings', { key: created.key! });
        expect(res.status).toBe(200);
        const policy = res.headers['ratelimit-policy']!;
        expect(policy).toContain(
          `q=${row.effective_burst};w=${Math.max(1, Math.ceil(row.effective_burst / row.effective_rate_per_s))}`,
        );
      }
    } finally {
      handler.close();
    }
  });
});

describe('keys create and update --label', () => {
  it('refuse a label the panel would refuse, with the usage exit code, and store nothing', async () => {
    await run(['import', DEMO_DATA]);
    for (const label of ['x'.repeat(201), 'Evil\u001b[2J', 'two\nlines']) {
      const { code, stderr } = await cliInProcess(dbFile, ['keys', 'create', '--facility', 'wro-1', '--label', label]);
      expect(code).toBe(2);
      expect(stderr).toMatch(/--label.*(at most 200 characters|without control characters)/s);
    }
    expect(JSON.parse(await run(['keys', 'list', '--json']))).toEqual([]);
  });

  it('shows a rate the panel form saves unchanged, however it was typed', async () => {
    await run(['import', DEMO_DATA]);
    await run(['keys', 'create', '--facility', 'wro-1', '--label', 'odd', '--rate', '1.2345/s', '--json']);
    await run(['keys', 'create', '--facility', 'wro-1', '--label', 'slow', '--rate', '1.5/h', '--json']);
    const out = await run(['keys', 'list']);
    expect(out).toMatch(/\s1\.2345\/s\s/);
    expect(out).toMatch(/\s1\.5\/h\s/);
  });
});

describe('keys update --rate default and --burst default', () => {
  it("put a key back on the server's defaults, as an empty field in the panel's form does", async () => {
    await run(['import', DEMO_DATA]);
    const created = JSON.parse(
      await run(['keys', 'create', '--facility', 'wro-1', '--rate', '20/s', '--burst', '40', '--json']),
    ) as KeyJson;
    const updated = JSON.parse(
      await run(['keys', 'update', created.id, '--rate', 'default', '--burst', 'default', '--json']),
    ) as KeyJson;
    expect([updated.rate_per_s, updated.burst]).toEqual([null, null]);
    expect([updated.effective_rate_per_s, updated.effective_burst]).toEqual([
      DEFAULT_KEY_LIMIT.rate,
      DEFAULT_KEY_LIMIT.burst,
    ]);
  });
});
