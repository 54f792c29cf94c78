// Checks an import file a part at a time (its own fields, each facility's, then each listing) and stops after
// MAX_KEPT_PROBLEMS: zod hands a list's problems to its parent with one push(...problems), which overflows the stack
// past about 100,000 of them, and a 30 KB file of empty listings has that many.
import type { z } from 'zod';
import { describeIssues, ImportFacilityShell, ImportFileShell, ImportListing, MAX_LISTINGS } from './import.ts';
import type { ImportFacility, ImportFile } from './import.ts';

/** The most problems kept of one file: enough to fix a file in a few passes, few enough for any page or terminal. */
export const MAX_KEPT_PROBLEMS = 1000;

/**
 * A required field left out is named as missing ("missing: a string is required"), not as a value of the wrong type
 * ("expected string, received undefined"); every other rule keeps its own words.
 */
const NAMING: z.core.ParseContext<z.core.$ZodIssue> = {
  error: (issue) =>
    issue.code === 'invalid_type' && issue.input === undefined
      ? `missing: ${article(issue.expected)} ${issue.expected} is required`
      : undefined,
};
const article = (type: string) => (/^[aeiou]/.test(type) ? 'an' : 'a');

/** The problems found so far, `path: rule` each, up to MAX_KEPT_PROBLEMS. */
class Problems {
  readonly lines: string[] = [];
  get full(): boolean {
    return this.lines.length >= MAX_KEPT_PROBLEMS;
  }
  add(lines: readonly string[]): void {
    this.lines.push(...lines.slice(0, MAX_KEPT_PROBLEMS - this.lines.length));
  }
  /** The parsed value, or undefined after adding its problems (their paths from `at`). */
  of<T>(result: z.ZodSafeParseResult<T>, at: readonly PropertyKey[]): T | undefined {
    if (result.success) return result.data;
    this.add(describeIssues(result.error, at));
    return undefined;
  }
}

/**
 * The file, or the problems in it (after any in `found`, up to MAX_KEPT_PROBLEMS in all): the same rules as ImportFile,
 * whose problems come facility by facility, each facility's own before its listings'.
 */
export function checkImport(json: unknown, found: readonly string[] = []): ImportFile | string[] {
  const problems = new Problems();
  problems.add(found);
  const file = problems.of(ImportFileShell.safeParse(json, NAMING), []);
  const facilities: ImportFacility[] = [];
  const raw = (json as { facilities?: unknown } | null)?.facilities;
  if (Array.isArray(raw))
    for (let i = 0; i < raw.length && !problems.full; i++) {
      const facility = checkFacility(raw[i], ['facilities', i], problems);
      if (facility) facilities.push(facility);
    }
  return file && problems.lines.length === 0 ? { ...file, facilities } : problems.lines;
}

function checkFacility(json: unknown, at: PropertyKey[], problems: Problems): ImportFacility | undefined {
  const facility = problems.of(ImportFacilityShell.safeParse(json, NAMING), at);
  const raw = (json as { listings?: unknown } | null)?.listings;
  const listings: ImportListing[] = [];
  // A list over the limit is one problem, named already: its listings are not checked one by one.
  if (Array.isArray(raw) && raw.length <= MAX_LISTINGS)
    for (let i = 0; i < raw.length && !problems.full; i++) {
      const listing = problems.of(ImportListing.safeParse(raw[i], NAMING), [...at, 'listings', i]);
      if (listing) listings.push(listing);
    }
  return facility && { ...facility, listings };
}
