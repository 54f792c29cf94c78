// What every error answer must be: RFC 9457 problem+json with exactly the contract's fields, its status equal to the HTTP status.
import { PROBLEM_TYPE_BASE, STATUS_OF } from '../../server/http/transport/answer.ts';
import { Problem } from '../../shared/listing.ts';

const FIELDS = ['code', 'detail', 'status', 'title', 'type'];

/** Why this answer is not a valid problem for this status, or undefined when it is. */
export function problemFault(status: number, contentType: string | undefined, body: string): string | undefined {
  if (contentType !== 'application/problem+json') return `content-type ${contentType} is not application/problem+json`;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return `body is not JSON: ${JSON.stringify(body.slice(0, 120))}`;
  }
  const parsed = Problem.safeParse(value);
  if (!parsed.success)
    return `not a Problem: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;
  const p = parsed.data;
  const keys = Object.keys(value as object).sort();
  if (keys.join() !== FIELDS.join()) return `fields ${keys.join()} are not exactly ${FIELDS.join()}`;
  if (p.status !== status) return `body status ${p.status} differs from HTTP status ${status}`;
  if (STATUS_OF[p.code] !== status) return `code ${p.code} belongs to status ${STATUS_OF[p.code]}, not ${status}`;
  if (p.type !== PROBLEM_TYPE_BASE + p.code) return `type ${p.type} does not name code ${p.code}`;
  if (/\n\s+at /.test(p.detail)) return 'detail carries a stack trace';
  return undefined;
}
