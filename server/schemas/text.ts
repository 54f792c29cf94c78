// Text fields of the import file: which control characters each kind of field may hold.
import { z } from 'zod';

/**
 * C0 controls and DEL: a page would carry them raw, PostgreSQL refuses NUL in text, and the URL parser drops tab and
 * newline, so a link would check as one URL and be served as another.
 */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u001f\u007f]/;
/** The same, but for tab and newline, which a paragraph of a description may hold. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_BUT_TAB_OR_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f]/;

/** `U+0000`: how a problem names a character that cannot be printed. */
function codePointOf(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function refuse(pattern: RegExp, rule: string) {
  return (text: string, ctx: z.core.$RefinementCtx<string>) => {
    const found = pattern.exec(text);
    if (found)
      ctx.addIssue({ code: 'custom', message: `${rule} (${codePointOf(found[0])} at character ${found.index + 1})` });
  };
}

/** A name, title, code, caption or URL: one line, no control characters at all. */
export const singleLine = () => z.string().superRefine(refuse(CONTROL, 'must be one line without control characters'));

/** A description: tab and newline are kept, every other control character refused. */
export const multiLine = () =>
  z
    .string()
    .superRefine(refuse(CONTROL_BUT_TAB_OR_NEWLINE, 'must not hold control characters other than tab and newline'));
