// The panel's changes to a facility's data in process: an import applied all or nothing and audited, and a snapshot
// published now, or the reason it cannot be.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoJson, tempDir } from './helpers/fixture.ts';
import { usePanel } from './helpers/panel.ts';
import { multipart } from './helpers/panel-accounts.ts';

const panel = usePanel();
const { request, session } = panel.client;

describe('import', () => {
  it('lists every problem with its JSON path and applies nothing; a valid file is applied and audited', async () => {
    const s = await session();
    const data = demoJson();
    data.facilities[0].listings[0].free_units = 999;
    data.facilities[0].listings[1].price_gross = -1;
    const before = await panel.store.facilityData('wro-1');
    const bad = multipart(s.csrf, 'bad.json', JSON.stringify(data));
    const refused = await request('POST', '/import', {
      headers: { cookie: s.cookie, 'content-type': bad.type },
      body: bad.body,
    });
    expect(refused.status).toBe(422);
    expect(String(refused.body)).toContain('facilities[0].listings[0].free_units');
    expect(String(refused.body)).toContain('facilities[0].listings[1].price_gross');
    expect(await panel.store.facilityData('wro-1')).toEqual(before);

    const good = multipart(s.csrf, 'good.json', JSON.stringify(demoJson()));
    const applied = await request('POST', '/import', {
      headers: { cookie: s.cookie, 'content-type': good.type },
      body: good.body,
    });
    expect(applied.status).toBe(200);
    expect((await panel.store.listAudit())[0]).toMatchObject({ action: 'import', actor: 'ops@example.com' });

    const forged = multipart('not-the-token', 'good.json', JSON.stringify(demoJson()));
    const noToken = await request('POST', '/import', {
      headers: { cookie: s.cookie, 'content-type': forged.type },
      body: forged.body,
    });
    expect(noToken.status).toBe(403);
  });
});

describe('snapshots', () => {
  it('says how to publish without a target; with one, publishes a facility now and shows its version', async () => {
    const s = await session();
    expect(String((await s.as('GET', '/facilities/wro-1/snapshots')).body)).toContain('no publish target');
    expect((await s.as('POST', '/facilities/wro-1/snapshots/publish')).status).toBe(409);

    const { generateSigningKey, loadSigningKey } = await import('../server/snapshots/format/keygen.ts');
    const { folderTarget } = await import('../server/snapshots/targets/folder.ts');
    const { dir, cleanup: done } = tempDir();
    try {
      const key = await loadSigningKey((await generateSigningKey(join(dir, 'secrets'))).private_key);
      const snapshots = { target: folderTarget(join(dir, 'public')), key, ttlSeconds: 3600 };
      panel.handle = panel.over({ snapshots });
      const t = await session();
      expect(String((await t.as('GET', '/facilities/wro-1/snapshots')).body)).toContain('never published');
      const published = await t.as('POST', '/facilities/wro-1/snapshots/publish');
      expect(published.status).toBe(303);
      expect(String((await t.as('GET', published.headers.location!)).body)).toContain('Published version 1');
      expect(existsSync(join(dir, 'public', 'wro-1', 'listings.json'))).toBe(true);
      expect(String((await t.as('GET', '/')).body)).toContain('v1, expires');
      await t.as('POST', '/facilities/wro-1/snapshots/publish');
      expect(String((await t.as('GET', '/facilities/wro-1/snapshots')).body)).toMatch(/<dd>2<\/dd>/);
    } finally {
      done();
    }
  });

  it('shows a withdrawn facility as withdrawn, with when, in the list and on its tab, in each language', async () => {
    const { generateSigningKey, loadSigningKey } = await import('../server/snapshots/format/keygen.ts');
    const { folderTarget } = await import('../server/snapshots/targets/folder.ts');
    const { withdrawFacility } = await import('../server/snapshots/publish/withdraw.ts');
    const { dir, cleanup: done } = tempDir();
    try {
      const key = await loadSigningKey((await generateSigningKey(join(dir, 'secrets'))).private_key);
      const target = folderTarget(join(dir, 'public'));
      panel.handle = panel.over({ snapshots: { target, key, ttlSeconds: 3600 } });
      const s = await session();
      await s.as('POST', '/facilities/wro-1/snapshots/publish');
      const withdrawal = await withdrawFacility(panel.store.snapshotLedger(), {
        target,
        key,
        facilityId: 'wro-1',
        ttlSeconds: 3600,
        audit: { actor: 'cli:ops', to: panel.store },
      });
      const at = `${withdrawal.withdrawn_at.slice(0, 16).replace('T', ' ')} UTC`;
      const words = { en: 'withdrawn', pl: 'wycofan', de: 'zurückgezogen' };
      for (const [language, word] of Object.entries(words)) {
        const page = async (url: string) => String((await s.as('GET', url, {}, { 'accept-language': language })).body);
        const row = /<tr>(?:(?!<\/tr>).)*wro-1(?:(?!<\/tr>).)*<\/tr>/s.exec(await page('/'))![0];
        expect(row).toContain(at);
        expect(row.toLowerCase()).toContain(word);
        expect(row).not.toMatch(/v2,/);
        const tab = await page('/facilities/wro-1/snapshots');
        const facts = /<dl class="facts">.*?<\/dl>/s.exec(tab)![0];
        expect(facts.toLowerCase()).toContain(word);
        expect(facts).toContain(at);
        expect(facts).not.toContain(`<dd>${withdrawal.expires_at.slice(0, 16).replace('T', ' ')} UTC</dd>`);
      }
    } finally {
      done();
    }
  });

  it("keeps a facility's publishes in its snapshot history however many other rows the audit log holds for it", async () => {
    const { publishAudit, keyAudit } = await import('../server/store/audit.ts');
    const { snapshotHistory } = await import('../server/panel/snapshots.ts');
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc' });
    const published = { facilityId: 'wro-1', version: 7, target: 's3://bucket/listings', kid: 'k1' };
    await panel.store.appendAudit([publishAudit('ops@example.com', published)]);
    await panel.store.appendAudit(Array.from({ length: 600 }, () => keyAudit('key.update', 'ops@example.com', info)));
    const history = await snapshotHistory(panel.store, 'wro-1');
    expect(history.map((r) => [r.action, r.detail.version])).toEqual([['snapshot.publish', 7]]);
  });
});
