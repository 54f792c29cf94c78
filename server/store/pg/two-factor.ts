// Two-factor login in PostgreSQL: the same rows and rules as SQLite's (../two-factor.ts).
import { accountAudit } from '../audit.ts';
import { infoOfOperator, type OperatorInfo } from '../operators.ts';
import { withoutDigest, type Enrolment, type PendingLogin } from '../two-factor.ts';
import { appendAuditPg } from './audit.ts';
import { inTransaction, type Pool } from './connect.ts';
import { endSessionsOfPg, keepOnlyEnrollingSessionPg, lockedOperator, operatorPg } from './operators.ts';

export async function startEnrolmentPg(pool: Pool, operatorId: string, secret: string): Promise<void> {
  await pool.query('UPDATE operators SET totp_secret = $1 WHERE id = $2 AND totp_enabled_at IS NULL', [
    secret,
    operatorId,
  ]);
}

export async function enableTwoFactorPg(pool: Pool, enrolment: Enrolment): Promise<boolean> {
  const { operatorId, enrolling, step, digests, actor } = enrolment;
  return inTransaction(pool, async (c) => {
    const { rows } = await c.query<{ email: string }>(
      `UPDATE operators SET totp_enabled_at = $1, totp_last_step = $2, recovery_codes = $3
       WHERE id = $4 AND totp_enabled_at IS NULL AND totp_secret IS NOT NULL RETURNING email`,
      [new Date().toISOString(), step, JSON.stringify(digests), operatorId],
    );
    if (!rows[0]) return false;
    await appendAuditPg(c, accountAudit('2fa.enrol', actor, rows[0].email));
    await keepOnlyEnrollingSessionPg(c, operatorId, enrolling, rows[0].email);
    return true;
  });
}

export async function useTimeStepPg(pool: Pool, operatorId: string, step: number): Promise<boolean> {
  const { rowCount } = await pool.query(
    'UPDATE operators SET totp_last_step = $1 WHERE id = $2 AND (totp_last_step IS NULL OR totp_last_step < $1)',
    [step, operatorId],
  );
  return rowCount === 1;
}

export async function useRecoveryCodePg(pool: Pool, operatorId: string, digest: string): Promise<boolean> {
  return inTransaction(pool, async (c) => {
    const { rows } = await c.query<{ email: string; recovery_codes: string }>(
      'SELECT email, recovery_codes FROM operators WHERE id = $1 FOR UPDATE',
      [operatorId],
    );
    const left = rows[0] && withoutDigest(rows[0].recovery_codes, digest);
    if (!rows[0] || !left) return false;
    await c.query('UPDATE operators SET recovery_codes = $1 WHERE id = $2', [JSON.stringify(left), operatorId]);
    await appendAuditPg(c, accountAudit('2fa.recovery_used', rows[0].email, rows[0].email, { left: left.length }));
    return true;
  });
}

export async function resetTwoFactorPg(pool: Pool, email: string, actor: string): Promise<OperatorInfo> {
  return inTransaction(pool, async (c) => {
    const row = await lockedOperator(c, email);
    await c.query(
      `UPDATE operators SET totp_secret = NULL, totp_enabled_at = NULL, totp_last_step = NULL, recovery_codes = '[]'
       WHERE id = $1`,
      [row.id],
    );
    await endSessionsOfPg(c, row.id);
    await appendAuditPg(c, accountAudit('2fa.reset', actor, row.email));
    return infoOfOperator((await operatorPg(c, 'id', row.id))!);
  });
}

export async function createPendingPg(pool: Pool, p: PendingLogin): Promise<void> {
  await pool.query(
    'INSERT INTO login_pending (digest, operator_id, attempt, end_others, created_at) VALUES ($1, $2, $3, $4, $5)',
    [p.digest, p.operator_id, p.attempt, p.end_others ? 1 : 0, p.created_at],
  );
}

export async function pendingLoginPg(pool: Pool, digest: string): Promise<PendingLogin | undefined> {
  const { rows } = await pool.query<Omit<PendingLogin, 'end_others'> & { end_others: number }>(
    'SELECT * FROM login_pending WHERE digest = $1',
    [digest],
  );
  const row = rows[0];
  return row && { ...row, attempt: Number(row.attempt), end_others: row.end_others === 1 };
}

export async function endPendingPg(pool: Pool, digest: string): Promise<void> {
  await pool.query('DELETE FROM login_pending WHERE digest = $1', [digest]);
}

export async function endStalePendingPg(pool: Pool, before: Date): Promise<void> {
  await pool.query('DELETE FROM login_pending WHERE created_at < $1', [before.toISOString()]);
}
