// Text fields of the import file: which control characters each kind of field may hold.
import { z } from 'zod';
import { C0_CONTROL, controlIn } from '../../shared/control-characters.ts';

/**
 * C0 controls and DEL: a page would carry them raw, PostgreSQL refuses NUL in text, and the URL parser drops tab and
 * newline, so a link would check as one URL and be served as another.
 */
const CONTROL = C0_CONTROL;
/** The same, but for tab and newline, which a paragraph of a description may hold. */
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL_BUT_TAB_OR_NEWLINE = /[\u0000-\u0008\u000b-\u001f\u007f]/;

function refuse(pattern: RegExp, rule: string) {
  return (text: string, ctx: z.core.$RefinementCtx<string>) => {
    const found = controlIn(text, pattern);
    if (found) ctx.addIssue({ code: 'custom', message: `${rule} (${found})` });
  };
}

/** A name, title, code, caption or URL: one line, no control characters at all. */
export const singleLine = () => z.string().superRefine(refuse(CONTROL, 'must be one line without control characters'));

/** A description: tab and newline are kept, every other control character refused. */
export const multiLine = () =>
  z
    .string()
    .superRefine(refuse(CONTROL_BUT_TAB_OR_NEWLINE, 'must not hold control characters other than tab and newline'));
