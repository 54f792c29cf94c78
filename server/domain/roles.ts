// Operators' roles as values: what each may do in the panel, from reading (viewer) to managing accounts (owner). No I/O.
import { ListingsError } from '../errors.ts';

/** Lowest to highest: each role may do all that the ones before it may. */
export const ROLES = ['viewer', 'manager', 'owner'] as const;
export type Role = (typeof ROLES)[number];

/** What the command line acts as: it runs with the database's own file or credentials, so it holds every right. */
export const CLI_ROLE: Role = 'owner';

export const roleAllows = (held: Role, needed: Role): boolean => ROLES.indexOf(held) >= ROLES.indexOf(needed);

export function parseRole(value: string): Role {
  const role = ROLES.find((r) => r === value.trim().toLowerCase());
  if (!role) throw new ListingsError('invalid_role', `role "${value}" is not one of ${ROLES.join(', ')}`);
  return role;
}
