// What the store keeps of panel accounts (operators, roles, sessions, two-factor), on SQLite or PostgreSQL alike.
import type { Role } from '../domain/roles.ts';
import type { SessionRow } from '../domain/sessions.ts';
import { CLI_ACTOR } from './audit.ts';
import type { Db } from './db.ts';
import * as ops from './operators.ts';
import type { OperatorInfo, OperatorRow } from './operators.ts';
import type { Pool } from './pg/connect.ts';
import * as pgOps from './pg/operators.ts';
import * as pgTwo from './pg/two-factor.ts';
import * as two from './two-factor.ts';
import type { Enrolment, PendingLogin } from './two-factor.ts';
import { writeNowOrSkip } from './busy.ts';
import { keepShownOnce, takeShownOnce } from './shown-once.ts';
import { keepShownOncePg, takeShownOncePg } from './pg/shown-once.ts';

/** Account changes are audited by `actor` (default: the CLI) in the change's own transaction. */
export interface AccountStore {
  /** The first operator is an owner whatever is asked; later ones get `role`, or viewer. */
  addOperator(email: string, passwordHash: string, role?: Role, actor?: string): Promise<OperatorInfo>;
  listOperators(): Promise<OperatorInfo[]>;
  operator(by: 'email' | 'id', value: string): Promise<OperatorRow | undefined>;
  removeOperator(email: string, actor?: string): Promise<OperatorInfo>;
  /** Ends the account's sessions. */
  setOperatorPassword(email: string, passwordHash: string, actor?: string): Promise<OperatorInfo>;
  /** Ends the account's sessions when the role changes; the last owner cannot stop being one. */
  setOperatorRole(email: string, role: Role, actor?: string): Promise<OperatorInfo>;
  createSession(row: SessionRow): Promise<void>;
  session(digest: string): Promise<SessionRow | undefined>;
  /** Best effort: on SQLite skipped, not waited for, while another process holds the write lock. */
  touchSession(digest: string, at: Date): Promise<void>;
  endSession(digest: string): Promise<void>;
  /** Every session of the operator but `except`. */
  endSessionsOf(operatorId: string, except?: string): Promise<void>;
  endExpiredSessions(idleBefore: Date, createdBefore: Date): Promise<void>;
  startEnrolment(operatorId: string, secret: string): Promise<void>;
  /**
   * False when two-factor was on already or no enrolment had started. Else the enrolling session goes on as a login
   * made with a code and the account's other sessions end.
   */
  enableTwoFactor(enrolment: Enrolment): Promise<boolean>;
  /** True once per time step and operator, and only for a step later than any used before. */
  useTimeStep(operatorId: string, step: number): Promise<boolean>;
  /** True once per recovery code. */
  useRecoveryCode(operatorId: string, digest: string): Promise<boolean>;
  resetTwoFactor(email: string, actor?: string): Promise<OperatorInfo>;
  createPendingLogin(row: PendingLogin): Promise<void>;
  pendingLogin(digest: string): Promise<PendingLogin | undefined>;
  endPendingLogin(digest: string): Promise<void>;
  endStalePendingLogins(before: Date): Promise<void>;
  /** Keeps what the page after a panel action shows once, for the session that acted (shown-once.ts). */
  keepShownOnce(sessionDigest: string, subject: string, value: string, now: Date): Promise<void>;
  /** What was kept for the session under `subject`, removed as it is read; undefined once read or expired. */
  takeShownOnce(sessionDigest: string, subject: string, now: Date): Promise<string | undefined>;
}

export function sqliteAccounts(db: Db): AccountStore {
  return {
    addOperator: async (email, hash, role, actor = CLI_ACTOR) => ops.addOperator(db, email, hash, role, actor),
    listOperators: async () => ops.listOperators(db),
    operator: async (by, value) => (by === 'email' ? ops.operatorByEmail(db, value) : ops.operatorById(db, value)),
    removeOperator: async (email, actor = CLI_ACTOR) => ops.removeOperator(db, email, actor),
    setOperatorPassword: async (email, hash, actor = CLI_ACTOR) => ops.setOperatorPassword(db, email, hash, actor),
    setOperatorRole: async (email, role, actor = CLI_ACTOR) => ops.setOperatorRole(db, email, role, actor),
    createSession: async (row) => ops.createSession(db, row),
    session: async (digest) => ops.sessionByDigest(db, digest),
    // Never waited for: a page must not wait 5 s, nor fail, while an import in another process writes.
    touchSession: async (digest, at) => void writeNowOrSkip(db, () => ops.touchSession(db, digest, at)),
    endSession: async (digest) => ops.endSession(db, digest),
    endSessionsOf: async (id, except) => ops.endSessionsOf(db, id, except ?? null),
    endExpiredSessions: async (idle, created) => ops.endExpiredSessions(db, idle, created),
    startEnrolment: async (id, secret) => two.startEnrolment(db, id, secret),
    enableTwoFactor: async (enrolment) => two.enableTwoFactor(db, enrolment),
    useTimeStep: async (id, step) => two.useTimeStep(db, id, step),
    useRecoveryCode: async (id, digest) => two.useRecoveryCode(db, id, digest),
    resetTwoFactor: async (email, actor = CLI_ACTOR) => two.resetTwoFactor(db, email, actor),
    createPendingLogin: async (row) => two.createPending(db, row),
    pendingLogin: async (digest) => two.pendingLogin(db, digest),
    endPendingLogin: async (digest) => two.endPending(db, digest),
    endStalePendingLogins: async (before) => two.endStalePending(db, before),
    keepShownOnce: async (digest, subject, value, now) => keepShownOnce(db, digest, subject, value, now),
    takeShownOnce: async (digest, subject, now) => takeShownOnce(db, digest, subject, now),
  };
}

/** `named` turns a driver's error into one line naming the database, as for every other call of the store. */
export function pgAccounts(
  pool: Pool,
  named: <A extends unknown[], T>(fn: (...args: A) => Promise<T>) => (...args: A) => Promise<T>,
): AccountStore {
  return {
    addOperator: named((email: string, hash: string, role?: Role, actor = CLI_ACTOR) =>
      pgOps.addOperatorPg(pool, email, hash, role, actor),
    ),
    listOperators: named(() => pgOps.listOperatorsPg(pool)),
    operator: named((by: 'email' | 'id', value: string) => pgOps.operatorPg(pool, by, value)),
    removeOperator: named((email: string, actor = CLI_ACTOR) => pgOps.removeOperatorPg(pool, email, actor)),
    setOperatorPassword: named((email: string, hash: string, actor = CLI_ACTOR) =>
      pgOps.setOperatorPasswordPg(pool, email, hash, actor),
    ),
    setOperatorRole: named((email: string, role: Role, actor = CLI_ACTOR) =>
      pgOps.setOperatorRolePg(pool, email, role, actor),
    ),
    createSession: named((row: SessionRow) => pgOps.createSessionPg(pool, row)),
    session: named((digest: string) => pgOps.sessionPg(pool, digest)),
    touchSession: named((digest: string, at: Date) => pgOps.touchSessionPg(pool, digest, at)),
    endSession: named((digest: string) => pgOps.endSessionPg(pool, digest)),
    endSessionsOf: named((id: string, except?: string) => pgOps.endSessionsOfPg(pool, id, except ?? null)),
    endExpiredSessions: named((idle: Date, created: Date) => pgOps.endExpiredSessionsPg(pool, idle, created)),
    startEnrolment: named((id: string, secret: string) => pgTwo.startEnrolmentPg(pool, id, secret)),
    enableTwoFactor: named((enrolment: Enrolment) => pgTwo.enableTwoFactorPg(pool, enrolment)),
    useTimeStep: named((id: string, step: number) => pgTwo.useTimeStepPg(pool, id, step)),
    useRecoveryCode: named((id: string, digest: string) => pgTwo.useRecoveryCodePg(pool, id, digest)),
    resetTwoFactor: named((email: string, actor = CLI_ACTOR) => pgTwo.resetTwoFactorPg(pool, email, actor)),
    createPendingLogin: named((row: PendingLogin) => pgTwo.createPendingPg(pool, row)),
    pendingLogin: named((digest: string) => pgTwo.pendingLoginPg(pool, digest)),
    endPendingLogin: named((digest: string) => pgTwo.endPendingPg(pool, digest)),
    endStalePendingLogins: named((before: Date) => pgTwo.endStalePendingPg(pool, before)),
    keepShownOnce: named((digest: string, subject: string, value: string, now: Date) =>
      keepShownOncePg(pool, digest, subject, value, now),
    ),
    takeShownOnce: named((digest: string, subject: string, now: Date) => takeShownOncePg(pool, digest, subject, now)),
  };
}
