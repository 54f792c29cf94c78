// Control characters in text people type or import: what each kind of text refuses, and how a problem names one.

/** C0 controls and DEL: what no line of text may hold (a page would carry them raw, PostgreSQL refuses NUL). */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
export const C0_CONTROL = /[\u0000-\u001f\u007f]/;
/** C0 and C1 controls and DEL: what a terminal acts on rather than shows (`ESC`, and `CSI` as one byte). */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
export const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** `U+001B`: how a problem names a character that cannot be printed. */
export const codePointOf = (char: string): string =>
  `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** The first character `pattern` finds in `text`, as `U+001B at character 5`; undefined when there is none. */
export function controlIn(text: string, pattern: RegExp): string | undefined {
  const found = pattern.exec(text);
  return found ? `${codePointOf(found[0])} at character ${found.index + 1}` : undefined;
}
