// The look of what <storage-listings> shows beyond the price: the promotion, features, the facility header, and the
// dialog's schedule and move-in total, on the same --sl-* custom properties as the cards.
import { css } from 'lit';

export const termsStyles = css`
  .promotion-title {
    color: var(--_promotion);
    font-size: 0.875em;
    font-weight: 700;
  }
  s,
  .features {
    color: var(--_muted);
    font-size: 0.875em;
    font-weight: 400;
  }
  /* inside the price (1.25em): the size of the other small texts */
  .price .period,
  s {
    font-size: 0.7em;
  }
  .features,
  .amenities,
  .hours,
  .terms dl {
    margin: 0.25rem 0 0;
  }
  .features,
  .amenities {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 0.75rem;
    padding: 0;
    list-style: none;
  }
  .icon {
    width: 1em;
    margin-inline-end: 0.25rem;
    vertical-align: -0.125em;
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
  }
  .facility {
    min-height: 17.5rem;
    align-content: start;
    margin-bottom: var(--_gap);
    gap: 0.25rem;
  }
  .facility-name,
  .now,
  .total {
    font-weight: 700;
  }
  .facility a {
    color: var(--_accent);
  }
  .now {
    color: var(--_available);
  }
  .shut {
    color: var(--_sold-out);
  }
  .terms div,
  .hours div {
    display: flex;
    justify-content: space-between;
    gap: 1rem;
  }
  .hours div {
    justify-content: start;
  }
  .period {
    white-space: nowrap;
  }
`;
