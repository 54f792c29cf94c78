// A tiny assertion helper for the browser tests (no assertion library is a dependency of the project).

export class AssertionError extends Error {
  override name = 'AssertionError';
}

function show(value: unknown): string {
  try {
    return typeof value === 'string' ? JSON.stringify(value) : String(JSON.stringify(value) ?? value);
  } catch {
    return String(value);
  }
}

export function ok(value: unknown, message = 'expected a truthy value'): asserts value {
  if (!value) throw new AssertionError(`${message} (got ${show(value)})`);
}

export function equal<T>(actual: T, expected: T, message = 'values differ'): void {
  if (!Object.is(actual, expected))
    throw new AssertionError(`${message}: expected ${show(expected)}, got ${show(actual)}`);
}

export function deepEqual(actual: unknown, expected: unknown, message = 'values differ'): void {
  if (show(actual) !== show(expected)) {
    throw new AssertionError(`${message}: expected ${show(expected)}, got ${show(actual)}`);
  }
}

export function includes(haystack: string | null | undefined, needle: string, message = 'text missing'): void {
  if (!haystack?.includes(needle)) throw new AssertionError(`${message}: ${show(needle)} not in ${show(haystack)}`);
}

export function notIncludes(haystack: string | null | undefined, needle: string, message = 'unexpected text'): void {
  if (haystack?.includes(needle)) throw new AssertionError(`${message}: ${show(needle)} in ${show(haystack)}`);
}
