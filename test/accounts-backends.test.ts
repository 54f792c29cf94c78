// Accounts on both stores: roles, the last owner (neither demoted nor removed), sessions ended by a role, two-factor (time steps once, recovery codes
// once, reset), pending logins, revoking a revoked key, and the audit log's filters give the same answers.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newSession, tokenDigest } from '../server/domain/sessions.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { demoImport, tempDir } from './helpers/fixture.ts';
import { usePostgres } from './helpers/postgres.ts';

const postgres = usePostgres();

/** The same steps on a store; what each answered, without times and random ids. */
async function script(store: Store) {
  const out: unknown[] = [];
  const strip = <T extends { id: string; created_at: string; password_changed_at: string }>(o: T) => {
    const { id: _, created_at: __, password_changed_at: ___, ...rest } = o;
    return rest;
  };
  await store.applyImport(demoImport());
  out.push(strip(await store.addOperator('a@example.com', 'h')));
  out.push(strip(await store.addOperator('b@example.com', 'h')));
  out.push(strip(await store.addOperator('c@example.com', 'h', 'manager', 'a@example.com')));
  await expect(store.setOperatorRole('a@example.com', 'viewer')).rejects.toMatchObject({ code: 'last_owner' });
  await expect(store.removeOperator('a@example.com')).rejects.toMatchObject({ code: 'last_owner' });
  expect(await store.listOperators()).toHaveLength(3);
  await expect(store.setOperatorRole('x@example.com', 'viewer')).rejects.toMatchObject({ code: 'unknown_operator' });

  const b = (await store.operator('email', 'b@example.com'))!;
  const [s1, s2] = [newSession(b.id).row, newSession(b.id).row];
  await store.createSession(s1);
  await store.createSession(s2);
  await store.endSessionsOf(b.id, s2.digest);
  out.push([await store.session(s1.digest), (await store.session(s2.digest))?.digest === s2.digest]);
  out.push(strip(await store.setOperatorRole('b@example.com', 'manager')));
  out.push(await store.session(s2.digest));

  await store.startEnrolment(b.id, 'JBSWY3DPEHPK3PXP');
  out.push(await store.useTimeStep(b.id, 10)); // before enabling: no secret in use, yet the step is kept
  const [enrolling, other] = [newSession(b.id).row, newSession(b.id).row];
  await store.createSession(enrolling);
  await store.createSession(other);
  const enrolment = { operatorId: b.id, enrolling: enrolling.digest, step: 100, digests: ['d1', 'd2'] };
  out.push(await store.enableTwoFactor({ ...enrolment, actor: 'b@example.com' }));
  out.push(await store.enableTwoFactor({ ...enrolment, actor: 'b@example.com' }));
  // The enrolling session goes on as one made with a code; the account's other session ends.
  expect(await store.session(enrolling.digest)).toMatchObject({ two_factor: true });
  expect(await store.session(other.digest)).toBeUndefined();
  out.push([
    await store.useTimeStep(b.id, 100),
    await store.useTimeStep(b.id, 101),
    await store.useTimeStep(b.id, 101),
  ]);
  out.push([await store.useRecoveryCode(b.id, 'd2'), await store.useRecoveryCode(b.id, 'd2')]);
  out.push((await store.operator('id', b.id))!.recovery_codes);
  const digest = tokenDigest('pending-token');
  const at = '2026-03-02T10:00:00.000Z';
  await store.createPendingLogin({ digest, operator_id: b.id, attempt: 7, end_others: true, created_at: at });
  const pending = await store.pendingLogin(digest);
  out.push({ ...pending, operator_id: pending?.operator_id === b.id });
  await store.endStalePendingLogins(new Date('2026-03-02T10:00:00.000Z'));
  out.push(Boolean(await store.pendingLogin(digest)));
  await store.endStalePendingLogins(new Date('2026-03-02T10:00:00.001Z'));
  out.push(await store.pendingLogin(digest));
  const reset = await store.resetTwoFactor('b@example.com');
  out.push([reset.two_factor_since, (await store.operator('id', b.id))!.totp_last_step]);

  const key = await store.createKey({ facilityId: 'wro-1', prefix: 'svc' });
  const first = await store.revokeKey(key.info.id);
  const second = await store.revokeKey(key.info.id);
  out.push(first.revoked_at === second.revoked_at);
  out.push((await store.listAudit({ action: 'key.revoke' })).length);

  const all = await store.auditPage({ limit: 2 });
  out.push([all.total, all.rows.map((r) => r.action)]);
  out.push((await store.auditPage({ actor: 'a@example.com' })).rows.map((r) => [r.action, r.detail]));
  out.push((await store.auditPage({ facilityId: 'wro-1', action: 'key.create' })).total);
  // the demo import names several facilities: each one's filter finds it, a facility it does not name does not
  expect((await store.auditPage({ facilityId: 'wro-1', action: 'import' })).total).toBe(1);
  expect((await store.auditPage({ facilityId: 'ber-1', action: 'import' })).total).toBe(1);
  expect((await store.auditPage({ facilityId: 'wro', action: 'import' })).total).toBe(0);
  expect((await store.auditPage({ facilityId: '%', action: 'import' })).total).toBe(0);
  out.push((await store.auditPage({ from: '2999-01-01' })).total);
  out.push((await store.auditPage({ to: '2000-01-01' })).total);
  out.push((await store.auditPage({ limit: 3, offset: 2 })).rows.length);
  out.push(await store.auditPage({ offset: 10_000 }));
  out.push((await store.listOperators()).map((o) => [o.email, o.role, o.two_factor_since]));
  return out;
}

describe('accounts on SQLite and on PostgreSQL', () => {
  it('answer the same to the same steps', async () => {
    const { dir, cleanup } = tempDir();
    const sqlite = await openStore(join(dir, 'accounts.db'));
    const pg = await openStore(await postgres.server().newDatabase());
    try {
      const [onSqlite, onPg] = [await script(sqlite), await script(pg)];
      expect(onPg).toEqual(onSqlite);
      expect(onSqlite[0]).toMatchObject({ email: 'a@example.com', role: 'owner' });
      expect(onSqlite[1]).toMatchObject({ role: 'viewer' });
      expect(onSqlite[2]).toMatchObject({ role: 'manager' });
      const at = (i: number) => onSqlite[i];
      expect(at(3)).toEqual([undefined, true]); // the other session ended, the one kept lives
      expect(at(5)).toBeUndefined(); // a new role ended the account's sessions
      expect([at(7), at(8)]).toEqual([true, false]); // enabled once
      expect(at(9)).toEqual([false, true, false]); // a step once, and only a later one
      expect(at(10)).toEqual([true, false]); // a recovery code once
      expect(at(11)).toBe('["d1"]');
      expect([at(13), at(14)]).toEqual([true, undefined]); // stale only once older than the bound
      expect(at(15)).toEqual([null, null]);
      expect([at(16), at(17)]).toEqual([true, 1]); // revoking a revoked key keeps its time and writes no row
      expect(at(19)).toEqual([['operator.add', { operator: 'c@example.com', role: 'manager' }]]);
      expect([at(20), at(21), at(22), at(23)]).toEqual([1, 0, 0, 3]);
      expect(at(24)).toEqual({ total: 0, rows: [] });
    } finally {
      await sqlite.close();
      await pg.close();
      cleanup();
    }
  });
});
