// A snapshot exported by the CLI holds the very objects the API answers with: the same facility, summaries and details,
// apart from the promotions still to come that a snapshot carries beside the active ones (readers pick them by time).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Detail, Snapshot, Summary } from '../shared/listing.ts';
import { activePromotions } from '../shared/promotions.ts';
import { demoImport, issueKey } from './helpers/fixture.ts';
import { call, json, type Target } from './helpers/http.ts';
import { handlerOver, PUBLIC_URL } from './helpers/inject.ts';
import { runInProcess as run, useExportedSnapshots } from './helpers/snapshot-export.ts';

const snap = useExportedSnapshots();

describe('snapshot and API agree', () => {
  it('exports the same Detail objects (prices, free units, links) the API answers with', async () => {
    const keys = demoImport().facilities.map((f) => [f.id, issueKey(snap.db, f.id).key] as const);
    const handler = handlerOver(snap.dbFile);
    try {
      const out = join(snap.dir, 'api-out');
      const r = await run(snap.exportArgs(out, snap.keyFile, '--public-url', PUBLIC_URL));
      expect(r.status).toBe(0);
      for (const [id, key] of keys) {
        const snapshot = Snapshot.parse(JSON.parse(readFileSync(join(out, id, 'listings.json'), 'utf8')));
        const list = await getJson(handler, '/external/listings', key);
        expect(list.facility).toEqual(snapshot.facility);
        const now = Date.parse(snapshot.generated_at);
        const asNow = snapshot.listings.map((d) => ({ ...d, promotions: activePromotions(d.promotions, now) }));
        expect(list.listings).toEqual(asNow.map((d) => Summary.parse(d)));
        for (const detail of asNow) {
          expect(Detail.parse(await getJson(handler, `/external/listings/${detail.id}`, key))).toEqual(detail);
        }
      }
    } finally {
      handler.close();
    }
  });
});

async function getJson(target: Target, path: string, key: string) {
  const reply = await call(target, path, { key });
  expect(reply.status).toBe(200);
  return json(reply) as { facility: unknown; listings: unknown[] };
}
