// Decodes, parses and validates an import file completely, before anything touches the store.
import { ListingsError } from '../errors.ts';
import { type ImportFile, jsonPath } from '../schemas/import.ts';
import { checkImport, MAX_KEPT_PROBLEMS } from '../schemas/import-check.ts';

/**
 * Parsing and checking a file takes about 3 times its size in memory, and its text must fit in one string (V8 holds
 * up to 512 M characters): a larger file is refused before it is read. An operator that large imports in several files.
 */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;

/** The refusal of a file over MAX_IMPORT_BYTES; the CLI gives it before reading a file that large. */
export function importTooLarge(source: string): ListingsError {
  return new ListingsError(
    'invalid_import',
    `${source}: larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB, the most an import file may be; import its ` +
      'facilities in several files (each facility is replaced on its own), nothing was changed',
  );
}

/**
 * The import file, from its bytes as read (or text already decoded), or a ListingsError: invalid UTF-8 and invalid
 * JSON name their line and column; invalid values, text with a lone surrogate among them, are collected, one
 * `path: rule` line per problem in `details` (up to MAX_KEPT_PROBLEMS), so that an operator can fix the file in a pass.
 */
export function parseImport(input: string | Uint8Array, source: string): ImportFile {
  const text = typeof input === 'string' ? input : decodeUtf8(input, source);
  const json = parseJson(text, source);
  const checked = checkImport(json, loneSurrogatesIn(text, json));
  if (!Array.isArray(checked)) return checked;
  const count =
    checked.length >= MAX_KEPT_PROBLEMS
      ? `at least ${checked.length} problems`
      : checked.length === 1
        ? '1 problem'
        : `${checked.length} problems`;
  throw new ListingsError('invalid_import', `${source}: ${count}, nothing was changed:`, checked);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The file's text; a byte order mark is dropped, as the JSON errors' columns count from after it. */
function decodeUtf8(bytes: Uint8Array, source: string): string {
  if (bytes.length > MAX_IMPORT_BYTES) throw importTooLarge(source);
  try {
    return utf8.decode(bytes);
  } catch {
    const { before, offset } = firstInvalidUtf8(bytes);
    const body = before.startsWith('\uFEFF') ? before.slice(1) : before;
    const { line, column } = lineAndColumn(body, body.length);
    const byte = bytes[offset]!.toString(16).padStart(2, '0');
    throw new ListingsError(
      'invalid_import',
      `${source}: invalid UTF-8 at line ${line}, column ${column} (byte offset ${offset}: 0x${byte}); ` +
        'save the file as UTF-8',
    );
  }
}

/**
 * Where the first ill-formed sequence starts, and the text before it. The platform's lenient decoder puts a U+FFFD
 * exactly there; a U+FFFD whose bytes are EF BF BD is one the file really holds, so the search goes on past it.
 */
function firstInvalidUtf8(bytes: Uint8Array): { before: string; offset: number } {
  const lenient = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  let offset = 0;
  let from = 0;
  for (let at = lenient.indexOf('\uFFFD'); at !== -1; at = lenient.indexOf('\uFFFD', at + 1)) {
    offset += Buffer.byteLength(lenient.slice(from, at));
    from = at;
    if (bytes[offset] !== 0xef || bytes[offset + 1] !== 0xbf || bytes[offset + 2] !== 0xbd)
      return { before: lenient.slice(0, at), offset };
  }
  throw new Error('firstInvalidUtf8: the bytes are valid UTF-8');
}

/** A `\uD800`-`\uDFFF` escape: the only way a lone surrogate gets past the decoder, so most files skip the search. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;
const LONE_SURROGATE = /\p{Surrogate}/u;

interface Visit {
  value: unknown;
  key: string | number | undefined;
  parent: Visit | undefined;
}

/** One problem for each string and key that holds a lone surrogate, in file order (iterative: any depth is fine). */
function loneSurrogatesIn(text: string, json: unknown): string[] {
  if (!SURROGATE_ESCAPE.test(text)) return [];
  const problems: string[] = [];
  const stack: Visit[] = [{ value: json, key: undefined, parent: undefined }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value, key } = visit;
    if (
      (typeof key === 'string' && LONE_SURROGATE.test(key)) ||
      (typeof value === 'string' && LONE_SURROGATE.test(value))
    )
      problems.push(`${jsonPath(pathOf(visit))}: must be valid Unicode text (lone surrogate)`);
    if (typeof value !== 'object' || value === null) continue;
    const children = Object.entries(value);
    for (let i = children.length - 1; i >= 0; i--) {
      const [name, child] = children[i]!;
      stack.push({ value: child, key: Array.isArray(value) ? Number(name) : name, parent: visit });
    }
  }
  return problems;
}

function pathOf(visit: Visit): (string | number)[] {
  const path: (string | number)[] = [];
  for (let v: Visit | undefined = visit; v?.key !== undefined; v = v.parent) path.unshift(v.key);
  return path;
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
