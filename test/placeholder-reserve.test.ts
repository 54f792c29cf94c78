// The README's placeholder holds the widget's loading height at every width: its CSS evaluated here against the grid's
// own arithmetic, and the README carrying exactly what the code makes.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CARD_BODY_REM, CARD_MIN_REM, GAP_REM, MAX_COLUMNS } from '../shared/embed-reserve.ts';
import { placeholderPadding, placeholderTag } from '../shared/placeholder-reserve.ts';

const REM = 16;

/** The CSS value at a parent `width` px wide: clamp() as CSS resolves it (a minimum above the maximum wins). */
function evaluate(css: string, width: number): number {
  const js = css
    .replaceAll('clamp(', 'C(')
    .replace(/([\d.]+)rem/g, '($1 * R)')
    .replace(/([\d.]+)%/g, '($1 * P)');
  const run = new Function('C', 'R', 'P', `return ${js};`) as (...a: unknown[]) => number;
  const clamp = (min: number, value: number, max: number) => Math.max(min, Math.min(value, max));
  return run(clamp, REM, width / 100);
}

/** The loading state's height as the widget's grid lays out `cards` skeletons in a `width` px element. */
function gridHeight(cards: number, width: number): number {
  const fits = Math.floor((width + GAP_REM * REM) / ((CARD_MIN_REM + GAP_REM) * REM));
  const columns = Math.min(Math.max(fits, 1), Math.max(MAX_COLUMNS, fits));
  const rows = Math.ceil(cards / columns);
  const card = (width - (columns - 1) * GAP_REM * REM) / columns;
  return rows * (0.75 * card + CARD_BODY_REM * REM) + (rows - 1) * GAP_REM * REM;
}

describe('the placeholder of the bare tags', () => {
  it('is as tall as the loading state: exactly while cards take more than one row, within 2.2rem in one row (one card: 6.4rem)', () => {
    for (const cards of [1, 3, 6]) {
      for (let width = 240; width <= 2400; width += 7) {
        const grid = gridHeight(cards, width);
        const held = evaluate(placeholderPadding(cards), width);
        const oneRow = Math.ceil(cards / Math.max(1, Math.floor((width + REM) / (17 * REM)))) === 1;
        const tolerance = oneRow ? (cards === 1 ? 6.4 : 2.2) * REM : 0.01;
        expect(Math.abs(held - grid), `${cards} cards at ${width} px: ${held} for ${grid}`).toBeLessThan(tolerance);
      }
    }
  });

  it('refuses a number of cards it cannot hold in one clamp chain', () => {
    expect(() => placeholderPadding(0)).toThrow(/cards: must be a whole number from 1 to 8/);
    expect(() => placeholderPadding(9)).toThrow(RangeError);
    expect(() => placeholderPadding(2.5)).toThrow(RangeError);
  });

  it("is in the README's two tags as the code makes it", () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(`api-base="http://127.0.0.1:8787">${placeholderTag()}</storage-listings>`);
  });
});
