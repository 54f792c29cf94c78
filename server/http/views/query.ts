// The list endpoint's query parameters, validated with zod; unknown parameters are ignored. The same schema writes
// the parameters of the OpenAPI document (names, patterns, enums, descriptions), so the two cannot drift.
import { z } from 'zod';
import { SORT_KEYS } from '../../../shared/sort.ts';

/** An area a storage unit can have: 0 to 100000 m² (the import's own bound), at most 4 decimals. */
const AREA = /^(100000(\.0{1,4})?|\d{1,5}(\.\d{1,4})?)$/;
const area = z.string().regex(AREA, 'must be a number from 0 to 100000, such as 7.5').transform(Number);

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

/**
 * Parses `?available=true&sort=price`: undefined when no known parameter is present (the whole list), or the problem's
 * detail (`min_area: ...`) when a value is malformed.
 */
export function parseListQuery(search: string): ListQuery | undefined | string {
  if (search === '' || search === '?') return undefined;
  const raw = new RawQuery();
  const twice = raw.read(search);
  if (twice !== undefined) return `${twice}: must be given at most once`;
  if (raw.count === 0) return undefined;
  return raw.valid() ?? raw.zodParse();
}

const SORTS = new Set<string>(SORT_KEYS);

/** The known parameters' texts, as URLSearchParams reads them; unknown parameters are ignored. */
class RawQuery {
  available: string | undefined = undefined;
  min_area: string | undefined = undefined;
  max_area: string | undefined = undefined;
  sort: string | undefined = undefined;
  count = 0;

  /** Reads the parameters; returns the name of one given twice. */
  read(search: string): string | undefined {
    // With escapes (+, %XX, a malformed %) URLSearchParams decodes as browsers do; without, a parameter is its text.
    if (/[%+]/.test(search)) {
      for (const [name, value] of new URLSearchParams(search)) if (!this.put(name, value)) return name;
      return undefined;
    }
    let at = search.charCodeAt(0) === 63 ? 1 : 0; // '?'
    while (at <= search.length) {
      let end = search.indexOf('&', at);
      if (end === -1) end = search.length;
      if (end > at) {
        const eq = search.indexOf('=', at);
        const name = search.slice(at, eq === -1 || eq > end ? end : eq);
        if (!this.put(name, eq === -1 || eq > end ? '' : search.slice(eq + 1, end))) return name;
      }
      at = end + 1;
    }
    return undefined;
  }

  /** false when the parameter was given before. Names are compared, not used as keys (no string interning). */
  private put(name: string, value: string): boolean {
    if (name === 'available') {
      if (this.available !== undefined) return false;
      this.available = value;
    } else if (name === 'min_area') {
      if (this.min_area !== undefined) return false;
      this.min_area = value;
    } else if (name === 'max_area') {
      if (this.max_area !== undefined) return false;
      this.max_area = value;
    } else if (name === 'sort') {
      if (this.sort !== undefined) return false;
      this.sort = value;
    } else return true;
    this.count++;
    return true;
  }

  /**
   * The query when every value is valid, by the schema's own pattern and enums; undefined sends anything else to zod
   * for its message. A list filtered by a visitor's slider is the API's commonest parameterised request, and zod's
   * object parse cost about a microsecond of it.
   */
  valid(): ListQuery | undefined {
    const { available, min_area, max_area, sort } = this;
    if (available !== undefined && available !== 'true' && available !== 'false') return undefined;
    if (min_area !== undefined && !AREA.test(min_area)) return undefined;
    if (max_area !== undefined && !AREA.test(max_area)) return undefined;
    if (sort !== undefined && !SORTS.has(sort)) return undefined;
    const min = min_area === undefined ? undefined : Number(min_area);
    const max = max_area === undefined ? undefined : Number(max_area);
    if (min !== undefined && max !== undefined && min > max) return undefined;
    const q: ListQuery = {};
    if (available !== undefined) q.available = available as 'true' | 'false';
    if (min !== undefined) q.min_area = min;
    if (max !== undefined) q.max_area = max;
    if (sort !== undefined) q.sort = sort as ListQuery['sort'];
    return q;
  }

  zodParse(): ListQuery | string {
    const raw: Record<string, string> = {};
    for (const name of LIST_QUERY_PARAMETERS) if (this[name] !== undefined) raw[name] = this[name];
    const parsed = ListQuery.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return `${String(issue.path[0])}: ${issue.message}`;
    }
    return parsed.data;
  }
}
