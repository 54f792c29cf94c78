// Roles at the panel's door: whether the operator's role reaches a route, and the audited refusal when it does not.
import { roleAllows, type Role } from '../domain/roles.ts';
import { accountAudit } from '../store/audit.ts';
import type { Store } from '../store/store.ts';
import type { Authenticated } from './auth.ts';
import { plain } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';

/** Undefined when the role reaches `needs`; else the 403, once its audit row is written. */
export async function beyondRole(
  store: Store,
  who: Authenticated,
  request: { method: string; path: string },
  needs: Role,
): Promise<Answer | undefined> {
  const { email, role } = who.operator;
  if (roleAllows(role, needs)) return undefined;
  await store.appendAudit([accountAudit('refused', email, email, { ...request, role, needs })]);
  return plain(403, `Refused: this needs the role ${needs}; yours is ${role}.`);
}
