// The list endpoint's query parameters, validated with zod; unknown parameters are ignored.
import { z } from 'zod';
import type { Summary } from '../schemas/listing.ts';
import { HttpProblem } from './answer.ts';

const area = z
  .string()
  .regex(/^\d{1,7}(\.\d{1,4})?$/, 'must be a non-negative number such as 7.5')
  .transform(Number);

export const SORTS = ['price', '-price', 'area', '-area', 'code'] as const;

export const ListQuery = z
  .object({
    available: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
    min_area: area.optional(),
    max_area: area.optional(),
    sort: z.enum(SORTS, { error: `must be one of ${SORTS.join(', ')}` }).optional(),
  })
  .refine((q) => q.min_area === undefined || q.max_area === undefined || q.min_area <= q.max_area, {
    path: ['min_area'],
    message: 'must not exceed max_area',
  });
export type ListQuery = z.infer<typeof ListQuery>;

const KNOWN = new Set(['available', 'min_area', 'max_area', 'sort']);

/** Parses `?available=true&sort=price`; returns undefined when no known parameter is present (the cached default list). */
export function parseListQuery(search: string): ListQuery | undefined {
  if (search === '' || search === '?') return undefined;
  const params = new URLSearchParams(search);
  const raw: Record<string, string> = {};
  for (const [name, value] of params) {
    if (!KNOWN.has(name)) continue;
    if (name in raw) throw new HttpProblem('invalid_parameter', `${name}: must be given at most once`);
    raw[name] = value;
  }
  if (Object.keys(raw).length === 0) return undefined;
  const parsed = ListQuery.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new HttpProblem('invalid_parameter', `${String(issue.path[0])}: ${issue.message}`);
  }
  return parsed.data;
}

/** A stable text for a query, so equal queries share one cached body. */
export function queryKey(q: ListQuery): string {
  return `${q.available ?? ''}|${q.min_area ?? ''}|${q.max_area ?? ''}|${q.sort ?? ''}`;
}

export function applyListQuery(listings: readonly Summary[], q: ListQuery): Summary[] {
  let out = listings.filter(
    (l) =>
      (q.available !== 'true' || l.free_units > 0) &&
      (q.min_area === undefined || l.area_m2 >= q.min_area) &&
      (q.max_area === undefined || l.area_m2 <= q.max_area),
  );
  if (q.sort) {
    const desc = q.sort.startsWith('-');
    const field = q.sort.replace('-', '');
    const value = (l: Summary) => (field === 'price' ? l.price.gross : field === 'area' ? l.area_m2 : 0);
    // Array.prototype.sort is stable: equal keys keep the import order.
    out = [...out].sort((a, b) =>
      field === 'code' ? (a.code < b.code ? -1 : a.code > b.code ? 1 : 0) : desc ? value(b) - value(a) : value(a) - value(b),
    );
  }
  return out;
}
