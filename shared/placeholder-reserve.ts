// The reservation the README's two tags carry without a style rule: an empty child of <storage-listings> as tall as
// the widget's loading state (its skeleton cards). It shows until the element is defined, then its shadow root (which
// has no slot) takes its place at the same height. Its percentages are of the parent's width, the element's own.
import { CARD_BODY_REM, CARD_MIN_REM, GAP_REM, MAX_COLUMNS } from './embed-reserve.ts';

/**
 * The skeleton cards the widget shows without a `cards` attribute (widget/src/loading.ts), under no header box and
 * whatever its `limit`: its loading state is what this reserves, and a shorter list or a header comes with the data.
 */
export const DEFAULT_SKELETONS = 3;

const round = (n: number) => Number(n.toFixed(3));

/** The height of `cards` cards in `columns` columns, as a width share and a fixed part: `P% + Rrem`. */
function rowsHeight(cards: number, columns: number): string {
  const rows = Math.ceil(cards / columns);
  const photoShare = (rows * 0.75 * 100) / columns;
  const fixed = rows * (CARD_BODY_REM - (0.75 * (columns - 1) * GAP_REM) / columns) + (rows - 1) * GAP_REM;
  return `${round(photoShare)}% + ${round(fixed)}rem`;
}

/**
 * The placeholder's `padding-top`: one term per column count below `cards` (a clamp picks the term of the parent's
 * width, as the widget's grid adds a column every 17rem), and past them one row, whose height varies by under 2.2rem
 * with the width (6.4rem for one card), held at the middle of its range.
 */
export function placeholderPadding(cards = DEFAULT_SKELETONS): string {
  if (!Number.isInteger(cards) || cards < 1 || cards > MAX_COLUMNS)
    throw new RangeError(`cards: must be a whole number from 1 to ${MAX_COLUMNS} (one row at the widest grid)`);
  const exact = Math.max(cards - 1, 1);
  // One row of cards in more than `exact` columns: each card between CARD_MIN_REM and the width it has just before
  // the next column fits.
  const widest = CARD_MIN_REM + (CARD_MIN_REM + GAP_REM) / (exact + 1);
  let value = `${round(CARD_BODY_REM + (0.75 * (CARD_MIN_REM + widest)) / 2)}rem`;
  // `(width where the next column fits - 100%) * 10000`: far above the term below that width, far under the one past
  // it, so the clamp steps from one to the other within a fifth of a pixel.
  for (let columns = exact; columns >= 1; columns--) {
    const next = (columns + 1) * (CARD_MIN_REM + GAP_REM) - GAP_REM;
    value = `clamp(${value}, (${next}rem - 100%) * 10000, ${rowsHeight(cards, columns)})`;
  }
  return value;
}

/** The child element the README's `<storage-listings>` holds. */
export const placeholderTag = (cards = DEFAULT_SKELETONS): string =>
  `<div style="padding-top: ${placeholderPadding(cards)}"></div>`;
