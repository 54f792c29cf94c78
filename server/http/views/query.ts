// The list endpoint's query parameters, validated with zod; unknown parameters are ignored. The same schema writes
// the parameters of the OpenAPI document (names, patterns, enums, descriptions), so the two cannot drift.
import { memoBy } from '../memo.ts';
import { z } from 'zod';
import { SORT_KEYS } from '../../../shared/sort.ts';
import { FEATURES, UNIT_TYPES } from '../../../shared/listing.ts';

/** An area a storage unit can have: 0 to 100000 m² (the import's own bound), at most 4 decimals. */
const AREA = /^(100000(\.0{1,4})?|\d{1,5}(\.\d{1,4})?)$/;
const area = z.string().regex(AREA, 'must be a number from 0 to 100000, such as 7.5').transform(Number);

/** A set of vocabulary words as bits, in the vocabulary's order (FEATURES has 12 words, UNIT_TYPES 9). */
export function bitsOf(words: readonly string[], vocabulary: readonly string[]): number {
  let bits = 0;
  for (const w of words) bits |= 1 << vocabulary.indexOf(w);
  return bits;
}

/** One comma-separated value of words of a vocabulary, as the bits of the words it names. */
function wordList(vocabulary: readonly string[]) {
  const word = `(${vocabulary.join('|')})`;
  return z
    .string()
    .regex(new RegExp(`^${word}(,${word})*$`), `must be one or more of ${vocabulary.join(', ')}, separated by commas`)
    .transform((value) => bitsOf(value.split(','), vocabulary));
}
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
    features: wordList(FEATURES)
      .optional()
      .describe('Only listings with every feature named, comma-separated: `drive_up,heated`.'),
    unit_type: wordList(UNIT_TYPES)
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

const KNOWN = new Set<string>(LIST_QUERY_PARAMETERS);

/** What a query string says: its query, undefined for the whole list, or the problem's detail (`min_area: ...`). */
type Parsed = ListQuery | undefined | string;

/**
 * Parses `?available=true&sort=price`: undefined when no known parameter is present (the whole list), or the problem's
 * detail when a value is malformed or a parameter repeated.
 */
export function parseListQuery(search: string): Parsed {
  return search === '' || search === '?' ? undefined : parse(search);
}

/** Query strings parsed recently: clients repeat a few filters, each then costs a lookup, not a parse. */
export class ListQueries {
  /** A client's cycle of filters is tens of strings; 4,096 holds many clients' and bounds ever new ones. (Tests read it.) */
  readonly parsed = memoBy<string, { result: Parsed }>(4096, (search) => ({ result: parse(search) }));

  /** parseListQuery(), its result shared by every request with this string. */
  parse(search: string): Parsed {
    if (search === '' || search === '?') return undefined;
    return this.parsed.memo(search).result;
  }
}

function parse(search: string): Parsed {
  const raw: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    if (!KNOWN.has(name)) continue;
    if (name in raw) return `${name}: must be given at most once`;
    raw[name] = value;
  }
  if (Object.keys(raw).length === 0) return undefined;
  const result = ListQuery.safeParse(raw);
  if (result.success) return Object.freeze(result.data);
  const issue = result.error.issues[0]!;
  return `${String(issue.path[0])}: ${issue.message}`;
}
