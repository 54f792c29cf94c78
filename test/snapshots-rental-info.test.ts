// Signed snapshots beyond price: the facility object and each Detail's new fields, as the API answers them, and every
// promotion not ended by generated_at (with its times: those active before expires_at and later ones), without
// shortening expires_at.
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listingIdOf } from '../server/domain/facility.ts';
import { parseImport } from '../server/domain/import.ts';
import { exportSnapshots } from '../server/snapshots/publish/export.ts';
import { signingKeyOf } from '../server/snapshots/format/keygen.ts';
import { verifySnapshot } from '../server/snapshots/format/verify.ts';
import { Jwks, Snapshot } from '../shared/listing.ts';
import { demoDb, issueKey, tempDir } from './helpers/fixture.ts';
import { call, json } from './helpers/http.ts';
import { handlerOver, PUBLIC_URL } from './helpers/inject.ts';
import { promotion, richJson } from './helpers/rental-info.ts';

const NOW = new Date('2030-03-01T12:00:00Z');
const DAY = 86_400_000;
const at = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString().replace(/\.000Z$/, 'Z');
const FIRST = listingIdOf('wro-1', 'XS-01');

describe('a snapshot of a facility with promotions', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);
  const promotions = [
    promotion({ code: 'ENDED', starts_at: null, ends_at: at(-1) }),
    promotion({ code: 'NOW', starts_at: at(-3), ends_at: at(2) }),
    promotion({ code: 'SOON', starts_at: at(5), ends_at: at(30) }),
    promotion({ code: 'LATER', starts_at: at(7), ends_at: null }),
    promotion({ code: 'ALWAYS', starts_at: null, ends_at: null, kind: 'amount_off', value: 100 }),
  ];
  const { file, db } = demoDb(dir, parseImport(JSON.stringify(richJson(promotions)), 'promos.json'));
  const key = signingKeyOf(generateKeyPairSync('ed25519').privateKey);
  const apiKey = issueKey(db, 'wro-1').key;

  it('carries those not ended, with their times, and the API those active now', async () => {
    await exportSnapshots(db, {
      outDir: join(dir, 'out'),
      key,
      publicUrl: PUBLIC_URL,
      ttlSeconds: 7 * 86_400,
      now: NOW,
    });
    const bytes = readFileSync(join(dir, 'out', 'wro-1', 'listings.json'));
    const sig = readFileSync(join(dir, 'out', 'wro-1', 'listings.json.sig'), 'utf8');
    const jwks = Jwks.parse(JSON.parse(readFileSync(join(dir, 'out', 'keys.json'), 'utf8')));
    expect(verifySnapshot(bytes, sig, jwks, { now: NOW }).ok).toBe(true);
    const snapshot = Snapshot.parse(JSON.parse(bytes.toString()));
    // LATER starts at expires_at, so no reader of this file sees it active; carried all the same, so that the bytes do
    // not depend on expires_at (they change only when a promotion starts or ends). ENDED is gone.
    expect(snapshot.expires_at).toBe(at(7));
    const detail = snapshot.listings.find((l) => l.id === FIRST)!;
    expect(detail.promotions.map((p) => p.code)).toEqual(['NOW', 'SOON', 'LATER', 'ALWAYS']);
    expect(detail.promotions[1]).toMatchObject({ starts_at: at(5), ends_at: at(30), price: { period: 'P1M' } });
    // What a reader shows at generated_at: the schedule and move-in of the promotions active then.
    expect(detail.schedule[0]).toMatchObject({ from_period: 1, promotion: 'NOW' });

    const handler = handlerOver(file, { clock: () => NOW.getTime() });
    try {
      const list = json(await call(handler, '/external/listings', { key: apiKey }));
      expect(snapshot.facility).toEqual(list.facility);
      const api = json(await call(handler, `/external/listings/${FIRST}`, { key: apiKey }));
      expect(api.promotions.map((p: { code: string }) => p.code)).toEqual(['NOW', 'ALWAYS']);
      expect({ ...detail, promotions: api.promotions }).toEqual(api);
      for (const other of snapshot.listings.filter((l) => l.id !== FIRST))
        expect(other).toEqual(json(await call(handler, `/external/listings/${other.id}`, { key: apiKey })));
    } finally {
      handler.close();
      db.close();
    }
  });
});
