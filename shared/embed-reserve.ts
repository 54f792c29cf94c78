// The style rule a snippet carries so that <storage-listings> holds its loaded height before its script has run: the
// widget's grid (cards at least 16rem wide, 1rem apart, each a 4:3 photo over a fixed-height body) computed in CSS
// from the element's own width, for the facility's current number of cards.

/** The widget's card sizes (widget/src/storage-listings.styles.ts): the test of layout shift holds them together. */
export const CARD_MIN_REM = 16;
export const GAP_REM = 1;
/** A card's height beside its 4:3 photo: borders, title, area, price, free units and the rent button. */
export const CARD_BODY_REM = 13.17;
/** The show-facility header's reserved height and the gap below it (widget/src/terms.styles.ts). */
const FACILITY_REM = 17.5 + GAP_REM;
/** The widest grid reserved for exactly: 8 columns, an element 135rem wide. */
export const MAX_COLUMNS = 8;
/** Cards reserved for at most: a longer list is reserved for this many, and grows when it arrives. */
export const MAX_RESERVED_CARDS = 60;

/** Whether a facility has what the show-facility header shows (its address, map position, hours or amenities). */
export function hasFacilityHeader(f: { address?: unknown; geo?: unknown; timezone?: unknown; amenities?: unknown }) {
  return !!(f.address || f.geo || f.timezone || (Array.isArray(f.amenities) && f.amenities.length));
}

/** The facility's listings now, all and those with free units: the snippet reserves room for those it will show. */
export interface CardCounts {
  all: number;
  available: number;
}

export const snippetCards = (availableOnly: boolean, c: CardCounts) => (availableOnly ? c.available : c.all);

const SELECTOR = 'storage-listings:not(:defined)::before';

/** The element's height with `columns` columns: rows of cards (photo at 3/4 of the card's width) and the header. */
function height(cards: number, columns: number, showFacility: boolean): string {
  const rows = Math.ceil(cards / columns);
  const photo = `0.75 * (100cqw - ${(columns - 1) * GAP_REM}rem) / ${columns}`;
  const fixed = rows * CARD_BODY_REM + (rows - 1) * GAP_REM + (showFacility ? FACILITY_REM : 0);
  return `calc(${rows} * ${photo} + ${Number(fixed.toFixed(3))}rem)`;
}

/** The CSS: the element is its own size container, and its ::before takes the grid's height until it is defined. */
export function reserveCss(count: number, showFacility: boolean): string {
  const cards = Math.min(Math.max(Math.trunc(count) || 1, 1), MAX_RESERVED_CARDS);
  const rules = [
    'storage-listings:not(:defined) { display: block; container-type: inline-size; }',
    `${SELECTOR} { content: ""; display: block; height: ${height(cards, 1, showFacility)}; }`,
  ];
  for (let columns = 2; columns <= MAX_COLUMNS; columns++) {
    const from = columns * (CARD_MIN_REM + GAP_REM) - GAP_REM;
    rules.push(
      `@container (min-width: ${from}rem) { ${SELECTOR} { height: ${height(cards, columns, showFacility)}; } }`,
    );
  }
  return rules.join('\n');
}
