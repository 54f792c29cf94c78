// Key verification's memos: refused keys remembered within their caps, the ones asked for again kept, and the 429s
// of failed authentication built once per Retry-After.
import { expect, it } from 'vitest';
import { issueKey } from '../../../test/helpers/fixture.ts';
import { useDemoDb } from '../../../test/helpers/setup.ts';
import { revokeKey } from '../../store/keys.ts';
import { AuthRefusals, KeyVerifier } from './auth.ts';

const demo = useDemoDb();

const unknownKey = (i: number) => `svc_live_${i.toString(36).padStart(32, 'Z')}`;

it('a flood of guessed keys keeps 16,384 unknown keys, the one guessed again among them, and a revoked key', () => {
  const verifier = new KeyVerifier(demo.db, 'svc');
  const revoked = issueKey(demo.db, 'wro-1');
  revokeKey(demo.db, revoked.id);
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
