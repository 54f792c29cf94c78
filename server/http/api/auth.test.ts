// Key verification's memos: refused keys remembered within their caps, the ones asked for again kept, and the 429s
// of failed authentication built once per Retry-After.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoDb, issueKey, tempDir } from '../../../test/helpers/fixture.ts';
import type { Db } from '../../store/db.ts';
import { revokeKey } from '../../store/keys.ts';
import { AuthRefusals, KeyVerifier } from './auth.ts';

let db: Db;
let cleanup: () => void;

beforeAll(() => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  db = demoDb(dir).db;
});
afterAll(() => {
  db.close();
  cleanup();
});

const unknownKey = (i: number) => `svc_live_${i.toString(36).padStart(32, 'Z')}`;

it('a flood of guessed keys keeps 16,384 unknown keys, the one guessed again among them, and a revoked key', () => {
  const verifier = new KeyVerifier(db, 'svc');
  const revoked = issueKey(db, 'wro-1');
  revokeKey(db, revoked.id);
  expect(verifier.verify(revoked.key)).toMatchObject({ ok: false, reason: 'revoked_api_key' });
  const again = unknownKey(-1 >>> 0);
  expect(verifier.verify(again)).toMatchObject({ ok: false, reason: 'invalid_api_key' });
  for (let i = 0; i < 17_000; i++) {
    expect(verifier.verify(unknownKey(i)).ok).toBe(false);
    if (i % 4096 === 0) verifier.verify(again);
  }
  expect(verifier.unknown.size).toBe(16_384);
  expect(verifier.unknown.get(again)).toMatchObject({ reason: 'invalid_api_key' });
  expect(verifier.unknown.get(unknownKey(0))).toBeUndefined();
  expect(verifier.revoked.get(revoked.key)).toMatchObject({ reason: 'revoked_api_key' });
});

it('builds each failed-authentication 429 once, keeps 64 of them, the one in use among them', () => {
  const refusals = new AuthRefusals();
  const used = refusals.of(1);
  expect(used.status).toBe(429);
  expect(used.headers['retry-after']).toBe('1');
  for (let s = 2; s < 200; s++) {
    refusals.of(s);
    if (s % 16 === 0) expect(refusals.of(1)).toBe(used);
  }
  expect(refusals.kept.size).toBe(64);
  expect(refusals.kept.get(1)).toBe(used);
  expect(refusals.kept.get(2)).toBeUndefined();
});
