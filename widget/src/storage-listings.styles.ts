// The look of <storage-listings>: themed by --sl-* custom properties, light or dark by the page's color-scheme.
import { css } from 'lit';

// Every text size is in em, relative to the host's --sl-font-size: a size in rem would keep the page's root size.
//
// Cards past the twelfth have content-visibility: auto: those out of sight skip layout and paint until scrolled near
// (200 cards paint in under half the time); contain-intrinsic-size is a typical card's height until a card has been
// rendered once. The first twelve always measure their real height, as the loading state reserved it.
// (Comments inside the css`` text would ship in the bundle.)
//
// Every colour is a light-dark() pair: a page that declares `color-scheme: dark` gets the dark palette, any other page
// the light one. Cards, messages and the dialog paint their own background, so text contrast never depends on the page.
// The pairs sit under @supports after plain light colours: in an engine without light-dark() (before Chrome 123,
// Firefox 120, Safari 17.5) a var() falling back to one would leave every colour unset, and no background painted.
export const styles = css`
  :host {
    --_accent: var(--sl-accent, #0a66c2);
    --_on-accent: var(--sl-accent-text, #ffffff);
    --_text: var(--sl-text, #1f2328);
    --_muted: var(--sl-muted, #59636e);
    --_bg: var(--sl-bg, #ffffff);
    --_surface: var(--sl-surface, #f6f8fa);
    --_border: var(--sl-border, #d1d9e0);
    --_available: var(--sl-available, #1a7f37);
    --_low: var(--sl-low, #9a6700);
    --_sold-out: var(--sl-sold-out, #cf222e);
    --_promotion: var(--sl-promotion, #bf3989);
    --_radius: var(--sl-radius, 0.5rem);
    --_gap: var(--sl-gap, 1rem);
    display: block;
    font-family: var(--sl-font); /* unset: the page's font */
    font-size: var(--sl-font-size, 1rem);
    line-height: 1.5;
    color: var(--_text);
  }
  @supports (color: light-dark(#000, #fff)) {
    :host {
      --_accent: var(--sl-accent, light-dark(#0a66c2, #4493f8));
      --_on-accent: var(--sl-accent-text, light-dark(#ffffff, #0d1117));
      --_text: var(--sl-text, light-dark(#1f2328, #e6edf3));
      --_muted: var(--sl-muted, light-dark(#59636e, #9198a1));
      --_bg: var(--sl-bg, light-dark(#ffffff, #151b23));
      --_surface: var(--sl-surface, light-dark(#f6f8fa, #212830));
      --_border: var(--sl-border, light-dark(#d1d9e0, #3d444d));
      --_available: var(--sl-available, light-dark(#1a7f37, #3fb950));
      --_low: var(--sl-low, light-dark(#9a6700, #d29922));
      --_sold-out: var(--sl-sold-out, light-dark(#cf222e, #f85149));
      --_promotion: var(--sl-promotion, light-dark(#bf3989, #f778ba));
    }
  }
  :host([hidden]) {
    display: none;
  }
  * {
    box-sizing: border-box;
  }
  p {
    margin: 0;
  }

  .grid {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, var(--sl-card-min-width, 16rem)), 1fr));
    gap: var(--_gap);
    margin: 0;
    padding: 0;
    list-style: none;
  }
  .card {
    display: flex;
    flex-direction: column;
    overflow: hidden;
    background: var(--_bg);
    color: var(--_text);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .card:nth-child(n + 13) {
    content-visibility: auto;
    contain-intrinsic-size: auto 27rem;
  }
  .media {
    aspect-ratio: 4 / 3;
    background: var(--_surface);
  }
  /* A listing without photos: a deliberate, labelled frame rather than an empty box. */
  .no-photo {
    display: grid;
    place-items: center;
    height: 100%;
    border: 1px dashed currentColor;
    color: var(--_muted);
    font-size: 0.85em;
  }
  .media img {
    display: block;
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
  .sold-out .media img {
    filter: grayscale(1);
  }
  .body {
    display: flex;
    flex: 1;
    flex-direction: column;
    gap: 0.25rem;
    padding: 0.875rem 1rem 1rem;
  }
  .head {
    display: flex;
    align-items: baseline;
    justify-content: space-between;
    gap: 0.5rem;
  }
  .title {
    min-height: 2.6em; /* two lines, whatever the title: cards and skeletons keep one height */
    font-size: 1.0625em;
    font-weight: 600;
    line-height: 1.3;
    overflow-wrap: anywhere;
  }
  .code,
  .area,
  .muted,
  .period,
  .net,
  dt {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .code {
    white-space: nowrap;
    font-variant-numeric: tabular-nums;
  }
  .price {
    font-size: 1.25em;
    font-weight: 700;
  }
  .period,
  .net {
    font-weight: 400;
  }
  .free-units {
    color: var(--_available);
    font-size: 0.875em;
    font-weight: 600;
  }
  .last .free-units {
    color: var(--_low);
  }
  .sold-out .free-units {
    color: var(--_sold-out);
  }
  .actions {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    margin-top: auto;
    padding-top: 0.5rem;
  }
  .actions > * {
    flex: 1 1 auto;
  }

  .primary,
  .secondary {
    display: inline-flex;
    align-items: center;
    justify-content: center;
    min-height: 2.667em; /* 2.5 times the host font size, as the bar of a skeleton */
    padding: 0.375rem 1rem;
    border: 1px solid var(--_accent);
    border-radius: calc(var(--_radius) * 0.75);
    font: inherit;
    font-size: 0.9375em;
    font-weight: 600;
    line-height: 1.25;
    text-decoration: none;
    cursor: pointer;
  }
  .primary {
    background: var(--_accent);
    color: var(--_on-accent);
  }
  .secondary {
    background: var(--_bg);
    color: var(--_accent);
  }
  .primary:hover {
    filter: brightness(1.08);
  }
  .secondary:hover {
    background: var(--_surface);
  }
  button:disabled {
    cursor: not-allowed;
    filter: grayscale(0.6);
  }
  :focus-visible {
    outline: 2px solid var(--_accent);
    outline-offset: 2px;
  }

  .card.skeleton {
    content-visibility: visible;
  }
  .skeleton .media,
  .skeleton .bar {
    animation: pulse 1.4s ease-in-out infinite;
  }
  .bar {
    display: inline-block;
    width: 40%;
    border-radius: 0.25rem;
    background: var(--_surface);
  }
  .bar.wide {
    width: 75%;
  }
  .bar.half {
    width: 55%;
  }
  .bar.button {
    display: block;
    height: 2.5em;
  }
  @keyframes pulse {
    50% {
      opacity: 0.5;
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .skeleton .media,
    .skeleton .bar {
      animation: none;
    }
  }

  .notice,
  .problem {
    display: grid;
    gap: 0.5rem;
    justify-items: start;
    /* at the top of a reserved height (keepHeight), not stretched over it */
    align-content: start;
    padding: 1rem 1.25rem;
    background: var(--_bg);
    color: var(--_text);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  .problem {
    border-inline-start: 4px solid var(--_sold-out);
  }

  .sr-only {
    position: absolute;
    width: 1px;
    height: 1px;
    margin: -1px;
    padding: 0;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
    border: 0;
  }
`;
