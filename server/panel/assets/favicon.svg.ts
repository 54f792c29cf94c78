// The panel's icon: a storage unit's roll-up door, in the panel's accent, readable at 16 px and on dark tabs.
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
<rect x="2" y="4" width="28" height="26" rx="4" fill="#0a58a8"/>
<rect x="7" y="10" width="18" height="20" fill="#fff"/>
<path d="M7 14h18M7 18h18M7 22h18M7 26h18" stroke="#0a58a8" stroke-width="1.5"/>
</svg>
`;
