// The list endpoint's query parameters, validated with zod; unknown parameters are ignored. The same schema writes
// the parameters of the OpenAPI document (names, patterns, enums, descriptions), so the two cannot drift.
import { z } from 'zod';
import { SORT_KEYS } from '../../../shared/sort.ts';
import { FEATURES, UNIT_TYPES } from '../../../shared/listing.ts';

/** An area a storage unit can have: 0 to 100000 m² (the import's own bound), at most 4 decimals. */
const AREA = /^(100000(\.0{1,4})?|\d{1,5}(\.\d{1,4})?)$/;
const area = z.string().regex(AREA, 'must be a number from 0 to 100000, such as 7.5').transform(Number);
const AVAILABLE = ['true', 'false'] as const;

/** A set of vocabulary words as bits, in the vocabulary's order (FEATURES has 12 words, UNIT_TYPES 9). */
export function bitsOf(words: readonly string[], vocabulary: readonly string[]): number {
  let bits = 0;
  for (const w of words) bits |= 1 << vocabulary.indexOf(w);
  return bits;
}

/** One comma-separated value of words of a vocabulary, as the bits of the words it names. */
function wordList(vocabulary: readonly string[]) {
  const word = `(${vocabulary.join('|')})`;
  const pattern = new RegExp(`^${word}(,${word})*$`);
  const schema = z
    .string()
    .regex(pattern, `must be one or more of ${vocabulary.join(', ')}, separated by commas`)
    .transform((value) => bitsOf(value.split(','), vocabulary));
  return { pattern, schema };
}
const FEATURE_LIST = wordList(FEATURES);
const UNIT_TYPE_LIST = wordList(UNIT_TYPES);
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
    features: FEATURE_LIST.schema
      .optional()
      .describe('Only listings with every feature named, comma-separated: `drive_up,heated`.'),
    unit_type: UNIT_TYPE_LIST.schema
      .optional()
      .describe('Only listings of any unit type named, comma-separated: `small,medium`.'),
  })
  .refine((q) => q.min_area === undefined || q.max_area === undefined || q.min_area <= q.max_area, {
    path: ['min_area'],
    message: 'must not exceed max_area',
  });
export type ListQuery = z.infer<typeof ListQuery>;

/** The names of the known parameters, in the order the document lists them. */
export const LIST_QUERY_PARAMETERS = Object.keys(ListQuery.shape) as (keyof ListQuery)[];

/** The known parameters as given, each undefined when absent: one object shape, whichever a request sends. */
interface RawQuery {
  available: string | undefined;
  min_area: string | undefined;
  max_area: string | undefined;
  sort: string | undefined;
  features: string | undefined;
  unit_type: string | undefined;
}

/**
 * Parses `?available=true&sort=price`: undefined when no known parameter is present (the whole list), or the problem's
 * detail (`min_area: ...`) when a value is malformed. A query is one object shape whatever it names, so the reads of
 * its fields by the views cache stay monomorphic.
 */
export function parseListQuery(search: string): ListQuery | undefined | string {
  if (search === '' || search === '?') return undefined;
  const raw = rawOf(search);
  if (typeof raw === 'string') return raw;
  if (
    raw.available === undefined &&
    raw.min_area === undefined &&
    raw.max_area === undefined &&
    raw.sort === undefined &&
    raw.features === undefined &&
    raw.unit_type === undefined
  )
    return undefined;
  return valid(raw) ?? viaSchema(raw);
}

function rawOf(search: string): RawQuery | string {
  const raw: RawQuery = {
    available: undefined,
    min_area: undefined,
    max_area: undefined,
    sort: undefined,
    features: undefined,
    unit_type: undefined,
  };
  // Text with '%' or '+' is decoded by URLSearchParams; without, its decoding changes nothing, and the pairs are cut
  // out of the text as they stand (no iterator, no entry arrays).
  if (search.includes('%') || search.includes('+')) {
    for (const [name, value] of new URLSearchParams(search)) {
      const repeated = put(raw, name, value);
      if (repeated !== undefined) return repeated;
    }
    return raw;
  }
  for (let at = search.charCodeAt(0) === 0x3f ? 1 : 0; at <= search.length;) {
    let end = search.indexOf('&', at);
    if (end === -1) end = search.length;
    const eq = search.indexOf('=', at);
    const cut = eq === -1 || eq > end ? end : eq;
    const repeated = put(raw, search.slice(at, cut), cut === end ? '' : search.slice(cut + 1, end));
    if (repeated !== undefined) return repeated;
    at = end + 1;
  }
  return raw;
}

/** Keeps a known parameter's value; the problem's detail when it was given before. Unknown names are ignored. */
function put(raw: RawQuery, name: string, value: string): string | undefined {
  switch (name) {
    case 'available':
    case 'min_area':
    case 'max_area':
    case 'sort':
    case 'features':
    case 'unit_type':
      if (raw[name] !== undefined) return `${name}: must be given at most once`;
      raw[name] = value;
  }
  return undefined;
}

const SORTS = new Set<string>(SORT_KEYS);

/**
 * The query when every value meets the schema's own pattern and enums; undefined sends the rest to zod for its message.
 * Zod's parse on every filtered list makes objects V8 pretenures, so the old generation grows under the field mix until
 * a full collection (docs/performance.md).
 */
function valid(raw: RawQuery): ListQuery | undefined {
  const { available, min_area, max_area, sort, features, unit_type } = raw;
  if (available !== undefined && available !== AVAILABLE[0] && available !== AVAILABLE[1]) return undefined;
  if ((min_area !== undefined && !AREA.test(min_area)) || (max_area !== undefined && !AREA.test(max_area)))
    return undefined;
  if (sort !== undefined && !SORTS.has(sort)) return undefined;
  if (features !== undefined && !FEATURE_LIST.pattern.test(features)) return undefined;
  if (unit_type !== undefined && !UNIT_TYPE_LIST.pattern.test(unit_type)) return undefined;
  const q = queryOf(
    available as ListQuery['available'],
    min_area === undefined ? undefined : Number(min_area),
    max_area === undefined ? undefined : Number(max_area),
    sort as ListQuery['sort'],
    features === undefined ? undefined : bitsOf(features.split(','), FEATURES),
    unit_type === undefined ? undefined : bitsOf(unit_type.split(','), UNIT_TYPES),
  );
  return q.min_area !== undefined && q.max_area !== undefined && q.min_area > q.max_area ? undefined : q;
}

function queryOf(
  available: ListQuery['available'],
  min_area: number | undefined,
  max_area: number | undefined,
  sort: ListQuery['sort'],
  features: number | undefined,
  unit_type: number | undefined,
): ListQuery {
  return { available, min_area, max_area, sort, features, unit_type };
}

function viaSchema(raw: RawQuery): ListQuery | string {
  const parsed = ListQuery.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return `${String(issue.path[0])}: ${issue.message}`;
  }
  const q = parsed.data;
  return queryOf(q.available, q.min_area, q.max_area, q.sort, q.features, q.unit_type);
}
