// The list endpoint's query parameters, validated with zod; unknown parameters are ignored. The same schema writes
// the parameters of the OpenAPI document (names, patterns, enums, descriptions), so the two cannot drift.
import { z } from 'zod';
import { SORT_KEYS } from '../../../shared/sort.ts';

/** An area a storage unit can have: 0 to 100000 m² (the import's own bound), at most 4 decimals. */
const AREA = /^(100000(\.0{1,4})?|\d{1,5}(\.\d{1,4})?)$/;
const area = z.string().regex(AREA, 'must be a number from 0 to 100000, such as 7.5').transform(Number);
const AVAILABLE = ['true', 'false'] as const;

export const ListQuery = z
  .object({
    available: z
      .enum(AVAILABLE, { error: 'must be true or false' })
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
  return valid(raw) ?? viaSchema(raw);
}

const SORTS = new Set<string>(SORT_KEYS);

/**
 * The query when every value meets the schema's own pattern and enums; undefined sends the rest to zod for its message.
 * Zod's parse on every filtered list left V8 allocating its objects straight in the old generation (pretenured), which
 * grew by about a megabyte a second under the field mix until a full collection (docs/performance.md).
 */
function valid(raw: Record<string, string>): ListQuery | undefined {
  const { available, min_area, max_area, sort } = raw;
  if (available !== undefined && available !== AVAILABLE[0] && available !== AVAILABLE[1]) return undefined;
  if ((min_area !== undefined && !AREA.test(min_area)) || (max_area !== undefined && !AREA.test(max_area)))
    return undefined;
  if (sort !== undefined && !SORTS.has(sort)) return undefined;
  const q: ListQuery = {};
  if (available !== undefined) q.available = available as ListQuery['available'];
  if (min_area !== undefined) q.min_area = Number(min_area);
  if (max_area !== undefined) q.max_area = Number(max_area);
  if (q.min_area !== undefined && q.max_area !== undefined && q.min_area > q.max_area) return undefined;
  if (sort !== undefined) q.sort = sort as ListQuery['sort'];
  return q;
}

function viaSchema(raw: Record<string, string>): ListQuery | string {
  const parsed = ListQuery.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `${String(issue.path[0])}: ${issue.message}`;
  }
  return parsed.data;
}
