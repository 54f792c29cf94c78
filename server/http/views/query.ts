// The list endpoint's query parameters, validated with zod; unknown parameters are ignored. The same schema writes
// the parameters of the OpenAPI document (names, patterns, enums, descriptions), so the two cannot drift.
import { z } from 'zod';
import { SORT_KEYS } from '../../../shared/sort.ts';

/** An area a storage unit can have: 0 to 100000 m² (the import's own bound), at most 4 decimals. */
const area = z
  .string()
  .regex(/^(100000(\.0{1,4})?|\d{1,5}(\.\d{1,4})?)$/, 'must be a number from 0 to 100000, such as 7.5')
  .transform(Number);

export const ListQuery = z
  .object({
    available: z
      .enum(['true', 'false'], { error: 'must be true or false' })
      .optional()
      .describe('`true`: only listings with free units.'),
    min_area: area.optional().describe('Smallest area_m2 (inclusive): a number such as 7.5.'),
    max_area: area.optional().describe('Largest area_m2 (inclusive): a number such as 7.5.'),
    sort: z
      .enum(SORT_KEYS, { error: `must be one of ${SORT_KEYS.join(', ')}` })
      .optional()
      .describe(
        'Order by gross price, area or code; `-` for descending. `code` is natural order: digits compare as numbers ' +
          '(S-2 before S-10), letters ignore case. Ties keep the import order.',
      ),
  })
  .refine((q) => q.min_area === undefined || q.max_area === undefined || q.min_area <= q.max_area, {
    path: ['min_area'],
    message: 'must not exceed max_area',
  });
export type ListQuery = z.infer<typeof ListQuery>;

/** The names of the known parameters, in the order the document lists them. */
export const LIST_QUERY_PARAMETERS = Object.keys(ListQuery.shape) as (keyof ListQuery)[];
const KNOWN = new Set<string>(LIST_QUERY_PARAMETERS);

/**
 * Parses `?available=true&sort=price`: undefined when no known parameter is present (the whole list), or the problem's
 * detail (`min_area: ...`) when a value is malformed.
 */
export function parseListQuery(search: string): ListQuery | undefined | string {
  if (search === '' || search === '?') return undefined;
  const params = new URLSearchParams(search);
  const raw: Record<string, string> = {};
  for (const [name, value] of params) {
    if (!KNOWN.has(name)) continue;
    if (name in raw) return `${name}: must be given at most once`;
    raw[name] = value;
  }
  if (Object.keys(raw).length === 0) return undefined;
  const parsed = ListQuery.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `${String(issue.path[0])}: ${issue.message}`;
  }
  return parsed.data;
}
