// How long a text is as a person counts it: in characters (code points), so that an emoji or a letter outside the
// Basic Multilingual Plane is one, not the two UTF-16 units String's length counts. The CLI, the panel's server and
// its script hold "at most N characters" rules by it.

/** Whether `text` has more than `max` characters; a text of more than twice `max` units is known to without a count. */
export function longerThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  if (text.length > 2 * max) return true;
  let count = 0;
  for (const _ of text) if (++count > max) return true;
  return false;
}

/** The most UTF-16 units a text of `max` characters may take: an input's `maxlength` counts those. */
export const unitsFor = (max: number) => 2 * max;
