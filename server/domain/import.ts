// Parses and validates an import file's text completely, before anything touches the store.
import { ListingsError } from '../errors.ts';
import { describeIssues, ImportFile } from '../schemas/import.ts';

/**
 * The import file, or a ListingsError: invalid JSON names its line and column; invalid values are all collected,
 * one `path: rule` line per problem in `details`, so that an operator can fix the file in one pass.
 */
export function parseImport(text: string, source: string): ImportFile {
  const parsed = ImportFile.safeParse(parseJson(text, source));
  if (!parsed.success) {
    const problems = describeIssues(parsed.error);
    const count = problems.length === 1 ? '1 problem' : `${problems.length} problems`;
    throw new ListingsError('invalid_import', `${source}: ${count}, nothing was changed:`, problems);
  }
  return parsed.data;
}

function parseJson(text: string, source: string): unknown {
  // Some editors save a byte order mark, which JSON.parse refuses; it is invisible, so columns count from after it.
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (err) {
    const message = (err as Error).message;
    const { line, column } = lineAndColumn(body, failureOffset(body, message));
    throw new ListingsError(
      'invalid_import',
      `${source}: invalid JSON at line ${line}, column ${column}: ${reasonOf(message)}`,
    );
  }
}

/** `Unexpected token '}'`, without V8's copy of the text and position (we give line and column instead). */
function reasonOf(message: string): string {
  return message
    .replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, '')
    .replace(/( in JSON)? at position \d+.*$/s, '')
    .trim();
}

/** Where JSON.parse gave up, as an offset into text. */
function failureOffset(text: string, message: string): number {
  const at = / at position (\d+)/.exec(message);
  if (at) return Number(at[1]);
  if (message.includes('Unexpected end of JSON input')) return text.length;
  // V8 names an unexpected token without saying where it is: it is the last character of the shortest prefix of the
  // text that already fails before its end (prefixes only fail earlier than that by running out of input).
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (failsBeforeEnd(text.slice(0, mid))) hi = mid;
    else lo = mid + 1;
  }
  return Math.max(0, lo - 1);
}

function failsBeforeEnd(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return false;
  } catch (err) {
    const message = (err as Error).message;
    const at = / at position (\d+)/.exec(message);
    if (at) return Number(at[1]) < prefix.length;
    return !message.includes('Unexpected end of JSON input');
  }
}

/** 1-based line and column of an offset, as editors show them. */
function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}
