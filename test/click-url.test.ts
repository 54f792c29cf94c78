// The click URL /go/{facility}/{code}?ref=: a redirect to the listing's own rent target with the partner's parameters,
// and a click counted only when a person follows a key's ref; then `listings referrals` reports it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../server/http/handler.ts';
import { revokeKey, updateKey } from '../server/store/keys.ts';
import { referralRows } from '../server/store/referrals.ts';
import { cliInProcess, demoDb, demoImport, issueKey, tempDir } from './helpers/fixture.ts';
import { handlerOver, inject, PUBLIC_URL } from './helpers/inject.ts';
import type { Db } from '../server/store/db.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36';
let dir: ReturnType<typeof tempDir>;
let db: Db;
let file: string;
let handler: Handler;
let now = Date.parse('2026-11-28T10:00:00Z');

beforeAll(() => {
  dir = tempDir();
  const data = demoImport();
  data.facilities[1]!.rental_page_url =
    'https://rent.example.com/{facility}/{code}?lang=pl&utm_source=operator&opts=a,b&flag&p=1+2&path=/a/b&sig=AbC~';
  ({ db, file } = demoDb(dir.dir, data));
  const a = issueKey(db, 'wro-1');
  updateKey(db, a.id, { ref: 'odra' });
  const gone = issueKey(db, 'wro-1');
  updateKey(db, gone.id, { ref: 'gone' });
  revokeKey(db, gone.id);
  const b = issueKey(db, 'ber-1');
  updateKey(db, b.id, { ref: 'berlin-guide' });
  const open = { rate: 1e9, burst: 1e9 };
  handler = handlerOver(file, { clock: () => now, clickIntervalMs: 3_600_000, pageLimit: open, pageRenderLimit: open });
});
afterAll(() => {
  handler.close();
  db.close();
  dir.cleanup();
});

const go = (url: string, headers: Record<string, string> = {}, method = 'GET', remoteAddress = '203.0.113.7') =>
  inject(handler, { method, url, headers: { 'user-agent': BROWSER, ...headers }, remoteAddress });

const counted = () => {
  handler.clicks.flush();
  return referralRows(db, { from: '2000-01-01', to: '2999-12-31' });
};

describe('the redirect', () => {
  it("goes to the listing's rental page with the partner's parameters", async () => {
    const r = await go('/go/wro-1/M-07?ref=odra');
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe(
      `${PUBLIC_URL}/rent/wro-1/M-07?ref=odra&utm_source=odra&utm_medium=referral&utm_campaign=storage-listings`,
    );
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it("keeps the parameters the operator's template sets, byte for byte, and adds the rest", async () => {
    const r = await go('/go/ber-1/M-4?ref=berlin-guide');
    expect(r.headers.location).toBe(
      'https://rent.example.com/ber-1/M-4?lang=pl&utm_source=operator&opts=a,b&flag&p=1+2&path=/a/b&sig=AbC~' +
        '&ref=berlin-guide&utm_medium=referral&utm_campaign=storage-listings',
    );
    const target = new URL(r.headers.location!);
    expect(target.origin + target.pathname).toBe('https://rent.example.com/ber-1/M-4');
    expect([...target.searchParams]).toEqual([
      ['lang', 'pl'],
      ['utm_source', 'operator'],
      ['opts', 'a,b'],
      ['flag', ''],
      ['p', '1 2'],
      ['path', '/a/b'],
      ['sig', 'AbC~'],
      ['ref', 'berlin-guide'],
      ['utm_medium', 'referral'],
      ['utm_campaign', 'storage-listings'],
    ]);
  });

  it('never goes where the request says: the target is always the listing', async () => {
    for (const url of [
      '/go/wro-1/M-07?ref=odra&url=https://evil.example',
      '/go/wro-1/M-07?ref=https://evil.example',
      '/go/wro-1/M-07?ref=%2F%2Fevil.example',
      '/go/wro-1/M-07?redirect=//evil.example',
    ]) {
      const r = await go(url);
      expect(r.status).toBe(302);
      expect(new URL(r.headers.location!).origin).toBe(PUBLIC_URL);
      expect(r.headers.location).not.toContain('evil');
    }
  });

  it('answers the rental pages 404 for an unknown facility, code or shape', async () => {
    for (const url of ['/go/nope/M-07?ref=odra', '/go/wro-1/NOPE?ref=odra', '/go/wro-1', '/go/wro-1/M-07/x']) {
      const r = await go(url);
      expect(r.status).toBe(404);
      expect(r.headers['content-type']).toContain('text/html');
    }
  });
});

describe('what counts', () => {
  it("counts a person's GET for a key's ref, once per visitor a day, and nothing else", async () => {
    const before = counted().filter((r) => r.listing === 'L-12');
    expect(before).toEqual([]);
    await go('/go/wro-1/L-12?ref=odra');
    await go('/go/wro-1/L-12?ref=odra'); // the same visitor again: a click, not a visitor
    await go('/go/wro-1/L-12?ref=odra', {}, 'GET', '2001:db8:1:2:aaaa::1');
    await go('/go/wro-1/L-12?ref=odra', {}, 'GET', '2001:db8:1:2:bbbb::9'); // the same /64: the same visitor
    await go('/go/wro-1/L-12?ref=odra', {}, 'HEAD');
    await go('/go/wro-1/L-12?ref=odra', { 'sec-purpose': 'prefetch' });
    await go('/go/wro-1/L-12?ref=odra', { purpose: 'prefetch' });
    await go('/go/wro-1/L-12?ref=odra', { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
    await go('/go/wro-1/L-12?ref=gone'); // a revoked key's ref
    await go('/go/wro-1/L-12?ref=nobody'); // no key has it
    await go('/go/wro-1/L-12?ref=berlin-guide'); // another facility's key
    await go('/go/wro-1/L-12');
    expect(counted().filter((r) => r.listing === 'L-12')).toEqual([
      { facility: 'wro-1', ref: 'odra', listing: 'L-12', day: '2026-11-28', clicks: 4, unique_visitors: 2 },
    ]);
  });

  it('starts a new day at UTC midnight: the same visitor counts again, in its own row', async () => {
    now = Date.parse('2026-11-29T00:00:01Z');
    await go('/go/wro-1/L-12?ref=odra');
    await go('/go/wro-1/XS-01?ref=odra');
    const rows = counted().filter((r) => r.day === '2026-11-29');
    expect(rows).toEqual([
      { facility: 'wro-1', ref: 'odra', listing: 'L-12', day: '2026-11-29', clicks: 1, unique_visitors: 1 },
      { facility: 'wro-1', ref: 'odra', listing: 'XS-01', day: '2026-11-29', clicks: 1, unique_visitors: 1 },
    ]);
  });

  it('grows no memory or table under a flood of distinct refs, codes and addresses', async () => {
    const rows = counted().length;
    for (let i = 0; i < 500; i++) {
      await go(`/go/wro-1/L-12?ref=r${i}`, {}, 'GET', `198.51.100.${i % 250}`);
      await go(`/go/wro-1/C${i}?ref=odra`, {}, 'GET', `192.0.2.${i % 250}`);
    }
    expect(counted().length).toBe(rows);
  });
});

describe('listings referrals', () => {
  it('sums by ref, prints CSV and refuses a bad day with exit 2', async () => {
    handler.clicks.flush();
    const byRef = await cliInProcess(file, [
      'referrals',
      '--from',
      '2026-11-01',
      '--to',
      '2026-11-30',
      '--by',
      'ref',
      '--json',
    ]);
    expect(JSON.parse(byRef.stdout)).toEqual([
      { facility: 'ber-1', ref: 'berlin-guide', listing: null, day: null, clicks: 1, unique_visitors: 1 },
      { facility: 'wro-1', ref: 'odra', listing: null, day: null, clicks: 8, unique_visitors: 5 },
    ]);
    const csv = await cliInProcess(file, [
      'referrals',
      '--facility',
      'wro-1',
      '--from',
      '2026-11-28',
      '--to',
      '2026-11-28',
      '--csv',
    ]);
    expect(csv.stdout).toBe(
      'facility,ref,listing,day,clicks,unique_visitors\r\nwro-1,odra,L-12,2026-11-28,4,2\r\nwro-1,odra,M-07,2026-11-28,2,1\r\n',
    );
    expect((await cliInProcess(file, ['referrals', '--from', '2026-02-30'])).code).toBe(2);
    const backwards = await cliInProcess(file, ['referrals', '--from', '2026-11-30', '--to', '2026-11-01']);
    expect(backwards.code).toBe(2); // options that do not go together: a usage error
    expect(backwards.stderr).toContain('is after');
  });
});
