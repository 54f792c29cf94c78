// The look of the details dialog of <storage-listings> (the sheet, its facts and the photo gallery), on the same
// --sl-* custom properties as the cards (see storage-listings.styles.ts).
import { css } from 'lit';

export const detailsStyles = css`
  dialog {
    width: min(44rem, calc(100vw - 2rem));
    max-height: calc(100dvh - 2rem);
    padding: 0;
    background: var(--_bg);
    color: var(--_text);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  dialog::backdrop {
    background: rgb(0 0 0 / 0.55);
  }
  .sheet {
    display: grid;
    gap: 1rem;
    padding: 1.25rem;
  }
  .sheet-head {
    display: flex;
    align-items: flex-start;
    justify-content: space-between;
    gap: 1rem;
  }
  h2,
  h3 {
    margin: 0;
    line-height: 1.3;
  }
  h2 {
    font-size: 1.25em;
    overflow-wrap: anywhere;
  }
  /* inside the title (1.25em): the size of the other small texts */
  h2 .code {
    font-size: 0.7em;
  }
  h3 {
    font-size: 1em;
  }
  .facts {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr));
    gap: 0.75rem 1.5rem;
    margin: 0;
  }
  dd {
    margin: 0;
  }
  dialog dd {
    font-weight: 600;
  }
  .description {
    white-space: pre-line;
    overflow-wrap: anywhere;
  }
  .terms dt::first-letter {
    text-transform: uppercase;
  }
  .total {
    border-top: 1px solid var(--_border);
  }
  figcaption {
    color: var(--_muted);
    font-size: 0.875em;
  }
  .gallery figure {
    display: grid;
    gap: 0.5rem;
    margin: 0;
  }
  .gallery img {
    width: 100%;
    height: auto;
    max-height: 55dvh;
    object-fit: contain;
    background: var(--_surface);
    border-radius: calc(var(--_radius) * 0.75);
  }
  .gallery-nav {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
    margin-top: 0.5rem;
  }
`;
