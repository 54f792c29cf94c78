// The audit log as an operator reads it: the panel's filters (facility, operator, action, days), details in words,
// times to the second, 50 rows a page; the CLI's filters; a withdrawal recorded as one; and versions counted per target
// from the migration on.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../server/store/db.ts';
import { sqliteLedger } from '../server/store/ledger.ts';
import { accountAudit, CLI_ACTOR, type AuditRow } from '../server/store/audit.ts';
import { cliInProcess, tempDir } from './helpers/fixture.ts';
import { sqliteAt } from './helpers/old-schema.ts';
import { snapshotKeyFile } from './helpers/published.ts';
import { OPERATOR, usePanel } from './helpers/panel.ts';
import { sessionAs } from './helpers/panel-accounts.ts';

const panel = usePanel();
const { client } = panel;

const rowsOf = (page: string) => [...page.matchAll(/<tr><td><time datetime="([^"]+)">([^<]+)<\/time>/g)];

describe("the panel's audit log", () => {
  it('filters by facility, operator, action and days, and keeps the filters on every page of 50', async () => {
    const at = (day: string, i: number) => new Date(`${day}T10:00:${String(i % 60).padStart(2, '0')}.000Z`);
    const entries = [
      ...Array.from({ length: 60 }, (_, i) => ({
        ...accountAudit('refused', 'ann@example.com', 'ann@example.com', { path: '/import' }, at('2026-03-01', i)),
        facility_id: 'wro-1',
      })),
      accountAudit('login', 'bob@example.com', 'bob@example.com', { two_factor: true }, at('2026-03-02', 0)),
      {
        ...accountAudit('refused', 'bob@example.com', 'bob@example.com', {}, at('2026-03-03', 0)),
        facility_id: 'ber-1',
      },
    ];
    await panel.store.appendAudit(entries);
    const s = await sessionAs(client, OPERATOR);
    const page = async (query: string) => String((await s.as('GET', `/audit${query}`)).body);

    const first = await page('?facility=wro-1&action=refused');
    expect(rowsOf(first)).toHaveLength(50);
    expect(first).toContain('href="/audit?facility=wro-1&amp;action=refused&amp;page=2"');
    expect(first).toMatch(/<select id="audit-action" name="action">.*<option selected>refused<\/option>/s);
    const second = await page('?facility=wro-1&action=refused&page=2');
    expect(rowsOf(second)).toHaveLength(10);
    expect(second).not.toContain('bob@example.com</td>');
    // An old link past the end says there is no such page and leads back to the last one.
    const past = await page('?facility=wro-1&action=refused&page=5');
    expect(rowsOf(past)).toHaveLength(0);
    expect(past).toContain('There is no such page: the list has 2.');
    expect(past).toContain('href="/audit?facility=wro-1&amp;action=refused&amp;page=2" rel="prev"');
    expect(past).not.toContain('Nothing recorded');
    // Filters that match nothing say so, not that nothing was ever recorded.
    const none = await page('?operator=nobody%40example.com');
    expect(none).toContain('Nothing recorded matches these filters.');
    expect(none).not.toContain('Nothing recorded yet.');

    const bob = rowsOf(await page('?operator=bob%40example.com'));
    expect(bob.map((m) => m[1])).toEqual(['2026-03-03T10:00:00.000Z', '2026-03-02T10:00:00.000Z']);
    // An email is one address in any case.
    expect(rowsOf(await page('?operator=Bob%40EXAMPLE.com')).map((m) => m[1])).toEqual(bob.map((m) => m[1]));
    const day = await page('?from=2026-03-02&to=2026-03-02');
    expect(rowsOf(day).map((m) => m[2])).toEqual(['2026-03-02 10:00:00 UTC']);
    // Details in words, not JSON.
    expect(day).toContain('two-factor: true');
    expect(day).not.toContain('{&quot;');
    // A page number of the wrong shape is the first page.
    const first50 = await s.as('GET', '/audit?facility=wro-1&page=-3');
    expect(first50.status).toBe(200);
    expect(rowsOf(String(first50.body))).toHaveLength(50);
  });

  it('says which filter it cannot read, above the form, and shows no rows rather than every row', async () => {
    await panel.store.appendAudit([accountAudit('login', 'ann@example.com', 'ann@example.com')]);
    const s = await sessionAs(client, OPERATOR);
    for (const [query, field] of [
      ['?action=drop%20table', 'audit-action'],
      ['?from=yesterday', 'audit-from'],
      ['?to=2026-02-30', 'audit-to'],
      ['?operator=ann%40example.com&from=2026-13-01', 'audit-from'],
    ] as const) {
      const answer = await s.as('GET', `/audit${query}`);
      const body = String(answer.body);
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(body).toMatch(
        /<p class="problems" role="alert" id="audit-problems">[^<]+<\/p>\s*<form method="get" action="\/audit"/,
      );
      expect(body).toContain(`aria-describedby="audit-problems"`);
      expect(body).toMatch(new RegExp(`id="${field}"[^>]*aria-invalid="true"`));
      expect(rowsOf(body)).toHaveLength(0);
      expect(body).not.toContain('Nothing recorded');
    }
  });

  it('shows each row once for a key revoked twice', async () => {
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc' });
    const s = await sessionAs(client, OPERATOR);
    expect((await s.as('POST', `/keys/${info.id}/revoke`)).status).toBe(303);
    expect((await s.as('POST', `/keys/${info.id}/revoke`)).status).toBe(303);
    expect(await panel.store.listAudit({ action: 'key.revoke' })).toHaveLength(1);
  });
});

describe('listings audit and withdraw', () => {
  it('filters by actor, action and time, refuses an unknown action, and records a withdrawal as one', async () => {
    const { dir, cleanup: done } = tempDir();
    try {
      const { keyFile } = await snapshotKeyFile(join(dir, 'secrets'));
      const out = join(dir, 'out');
      const run = (args: string[]) => cliInProcess(panel.file, args);
      expect((await run(['snapshot', 'publish', '--to', out, '--signing-key', keyFile])).code).toBe(0);
      expect((await run(['snapshot', 'withdraw', 'wro-1', '--to', out, '--signing-key', keyFile])).code).toBe(0);
      const json = async (args: string[]) => JSON.parse((await run(['audit', ...args, '--json'])).stdout) as AuditRow[];
      const withdrawn = await json(['--action', 'snapshot.withdraw']);
      expect(withdrawn.map((r) => [r.actor, r.facility_id, r.detail.version])).toEqual([[CLI_ACTOR, 'wro-1', 2]]);
      expect((await json(['--actor', CLI_ACTOR, '--facility', 'wro-1'])).map((r) => r.action)).toEqual([
        'snapshot.withdraw',
        'snapshot.publish',
      ]);
      expect(await json(['--since', '2999-01-01'])).toEqual([]);
      expect((await json(['--until', '2999-01-01T00:00:00Z'])).length).toBeGreaterThan(2);
      expect((await run(['audit', '--action', 'publish'])).code).toBe(2);
      expect((await run(['audit', '--since', 'soon'])).code).toBe(2);
    } finally {
      done();
    }
  });
});

describe('listings audit --until', () => {
  it('includes the whole of a day, as the panel does, and ends before a full time exactly', async () => {
    const ANN = 'ann@example.com';
    const times = ['2026-11-29T23:59:59.999Z', '2026-11-30T00:00:00.000Z', '2026-11-30T23:59:59.999Z'];
    const after = '2026-12-01T00:00:00.000Z';
    await panel.store.appendAudit([...times, after].map((t) => accountAudit('login', ANN, ANN, {}, new Date(t))));
    const cli = async (until: string) => {
      const got = await cliInProcess(panel.file, ['audit', '--actor', ANN, '--until', until, '--json']);
      return (JSON.parse(got.stdout) as AuditRow[]).map((r) => r.at);
    };
    const s = await sessionAs(client, OPERATOR);
    const panelTo = async (to: string) =>
      rowsOf(String((await s.as('GET', `/audit?operator=${ANN}&to=${to}`)).body)).map((m) => m[1]);
    expect(await cli('2026-11-30')).toEqual([...times].reverse());
    expect(await cli('2026-11-30')).toEqual(await panelTo('2026-11-30'));
    expect(await cli('2026-11-30T23:59:59.999Z')).toEqual([times[1], times[0]]);
    expect((await cliInProcess(panel.file, ['audit', '--until', '2026-02-30'])).code).toBe(2);
    expect((await cliInProcess(panel.file, ['audit', '--help'])).stdout).toMatch(/--until <time> +.*day included/);
  });
});

describe('migration 9', () => {
  it("keeps each known target's count and starts a new target at 1", async () => {
    const { dir, cleanup: done } = tempDir();
    const path = sqliteAt(
      dir,
      8,
      `INSERT INTO snapshot_versions VALUES ('wro-1', 5, 'abc');
      INSERT INTO snapshot_published VALUES ('file:///old', 'wro-1', 1, 'http://x', 5, 'abc', 'k', 't', 't');`,
      'v8.db',
    );
    const db = openDb(path);
    try {
      const ledger = sqliteLedger(db);
      expect((await ledger.reserveVersions('file:///old', ['wro-1'])).get('wro-1')).toEqual({
        version: 6,
        previousDigest: 'abc',
      });
      expect((await ledger.reserveVersions('file:///new', ['wro-1'])).get('wro-1')).toEqual({
        version: 1,
        previousDigest: '',
      });
    } finally {
      db.close();
      done();
    }
  });
});
