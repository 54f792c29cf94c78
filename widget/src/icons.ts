// Inline SVG icons of the unit features: stroked paths on a 24-unit grid, no external asset to fetch or allow in a CSP.
import { html, type TemplateResult } from 'lit';
import type { Feature } from '../../shared/listing.ts';

const PATHS: Record<Feature, string> = {
  climate_controlled: 'M12 2v20M3 7l18 10M21 7 3 17',
  heated: 'M8 20q3-4 0-8t0-8M16 20q3-4 0-8t0-8',
  indoor: 'M3 11l9-8 9 8M5 9v12h14V9',
  outdoor: 'M12 22V12M5 14l7-12 7 12z',
  drive_up: 'M2 6h12v10H2zm12 4h5l3 3v3h-8',
  ground_floor: 'M3 21h18M12 3v14M7 12l5 5 5-5',
  elevator_access: 'M4 3h16v18H4zm5 7 3-3 3 3m-6 4 3 3 3-3',
  power: 'M13 2 5 14h6l-1 8 8-12h-6z',
  lighting: 'M9 21h6M8 16c-4-4-2-13 4-13s8 9 4 13z',
  alarmed: 'M6 16v-5a6 6 0 0 1 12 0v5l2 2H4zM10 21h4',
  shelving: 'M4 3v18M20 3v18M4 9h16M4 15h16',
  roll_up_door: 'M3 21V4h18v17M3 9h18M3 14h18',
};

/** The feature's icon, hidden from screen readers (its label beside it says the same); none for an unknown word. */
export function featureIcon(feature: string): TemplateResult | string {
  // Own keys only: a word such as "constructor" from a newer server is no icon.
  if (!Object.hasOwn(PATHS, feature)) return '';
  const d = PATHS[feature as Feature];
  return html`<svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><path d=${d}></path></svg>`;
}
