// The audit rows the normal-email migration writes for each email it leaves as it was, on either store.
import type { EmailNormalizing } from '../domain/emails.ts';
import { emailKey } from '../domain/emails.ts';

/** Who the audit log names for what a migration did: no person, whichever command opened the database. */
export const MIGRATION_ACTOR = 'migration';

export interface KeptAudit {
  at: string;
  actor: string;
  action: 'operator.email_kept';
  detail: string;
}

/** One row per email left as it was: the email, why, and the normal form it would have had. */
export function emailKeptAudit(kept: EmailNormalizing['kept'], now = new Date()): KeptAudit[] {
  return kept.map(({ email, reason }) => ({
    at: now.toISOString(),
    actor: MIGRATION_ACTOR,
    action: 'operator.email_kept',
    detail: JSON.stringify({ operator: email, reason, normal_form: emailKey(email) }),
  }));
}
