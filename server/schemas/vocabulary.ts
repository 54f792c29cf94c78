// Words from one of the contract's vocabularies: anything else is refused with the list of allowed words.
import { z } from 'zod';

/** Cross-field rules run even when a field of the object has a problem of its own: one run reports every problem. */
export const evenWithOtherProblems = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null,
};

/** One word of the vocabulary. */
export const word = <const T extends readonly [string, ...string[]]>(words: T) =>
  z.enum(words, { error: `must be one of ${words.join(', ')}` });

/** A list of distinct words of the vocabulary. */
export const words = <const T extends readonly [string, ...string[]]>(vocabulary: T) =>
  z
    .array(word(vocabulary))
    .max(vocabulary.length)
    .superRefine((list, ctx) => {
      list.forEach((w, i) => {
        if (list.indexOf(w) !== i) ctx.addIssue({ code: 'custom', path: [i], message: `duplicate "${w}"` });
      });
    });

/** An operator's code for a fee, plan or promotion: what answers and move-in parts name it by. */
export const code = () =>
  z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 characters of letters, digits, ".", "_" or "-"');

/** Codes of a list's items, each once: the first use keeps it, later ones are refused. */
export function uniqueCodes(items: unknown, ctx: z.core.$RefinementCtx<unknown>, path: PropertyKey[]): void {
  if (!Array.isArray(items)) return;
  const seen = new Map<string, number>();
  items.forEach((item: unknown, i) => {
    const c = typeof item === 'object' && item !== null ? (item as { code?: unknown }).code : undefined;
    if (typeof c !== 'string') return;
    const first = seen.get(c);
    if (first !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: [...path, i, 'code'],
        message: `duplicate code "${c}" (also at [${first}])`,
      });
    else seen.set(c, i);
  });
}
