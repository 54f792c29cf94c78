// The embed configurator as data: its query (read and checked), the widget's attributes and theme it names, and the
// snippet partners paste. One module for the page the panel's server renders and the preview its script redraws.
import { reserveCss } from './embed-reserve.ts';
import { REF_PATTERN, REF_RULE } from './key-limits.ts';
import { SORT_KEYS, type SortKey } from './sort.ts';

/** The colour properties the configurator sets (docs/widget.md, "Styling"): the pairs that decide contrast. */
export const THEME_COLOURS = [
  ['accent', '--sl-accent'],
  ['accent_text', '--sl-accent-text'],
  ['text', '--sl-text'],
  ['bg', '--sl-bg'],
] as const;
export type ThemeColour = (typeof THEME_COLOURS)[number][0];
export type Colours = Record<ThemeColour, string>;

/** Three presets: the widget's own light and dark defaults, and a warm brand look; each keeps text at WCAG AA. */
export const THEME_PRESETS = {
  light: { accent: '#0a66c2', accent_text: '#ffffff', text: '#1f2328', bg: '#ffffff' },
  dark: { accent: '#4493f8', accent_text: '#0d1117', text: '#e6edf3', bg: '#151b23' },
  warm: { accent: '#7a3e00', accent_text: '#ffffff', text: '#2b1d0e', bg: '#fff8ef' },
} as const satisfies Record<string, Colours>;
export type ThemePreset = keyof typeof THEME_PRESETS;
export const THEME_NAMES = Object.keys(THEME_PRESETS) as ThemePreset[];

export const EMBED_LOCALES = ['en', 'pl', 'de'] as const;
export const MAX_REFRESH_SECONDS = 3600;

export interface EmbedOptions {
  /** A key's id (the snippet names its hint), or 'snapshot'; '' until one is chosen. */
  source: string;
  /** Where the published folder is served (its facility folders and keys.json), for the snapshot source. */
  snapshot_base: string;
  /** The partner a snapshot embed's rent links credit (its key's ref), through PUBLIC_URL's /go/; '' for none. */
  partner_ref: string;
  available_only: boolean;
  sort: SortKey | '';
  locale: (typeof EMBED_LOCALES)[number] | '';
  show_net: boolean;
  show_facility: boolean;
  /** Seconds between refreshes; 0: never. */
  refresh: number;
  theme: ThemePreset;
  colours: Colours;
}

export const DEFAULT_EMBED: EmbedOptions = {
  source: '',
  snapshot_base: '',
  partner_ref: '',
  available_only: false,
  sort: '',
  locale: '',
  show_net: false,
  show_facility: false,
  refresh: 0,
  theme: 'light',
  colours: { ...THEME_PRESETS.light },
};

const COLOUR = /^#[0-9a-f]{6}$/i;
const ON = (v: string | null) => v === '1' || v === 'on' || v === 'true';

/** The options a query names, and a problem (field: rule) for each value it names wrongly; those keep the default. */
export function readEmbedOptions(params: URLSearchParams): { options: EmbedOptions; problems: string[] } {
  const problems: string[] = [];
  const o: EmbedOptions = { ...DEFAULT_EMBED, colours: { ...DEFAULT_EMBED.colours } };
  const text = (name: string) => (params.get(name) ?? '').trim();
  const source = text('source');
  if (source === 'snapshot' || /^[A-Za-z0-9_-]{1,64}$/.test(source)) o.source = source;
  else if (source) problems.push('source: a key of this facility or "snapshot"');
  const base = text('snapshot_base');
  if (base && !/^https?:\/\/[^\s"<>]+$/.test(base)) problems.push('snapshot_base: an http or https URL');
  else o.snapshot_base = base.replace(/\/+$/, '');
  const ref = text('partner_ref');
  if (ref && !REF_PATTERN.test(ref)) problems.push(`partner_ref: ${REF_RULE}`);
  else o.partner_ref = ref;
  o.available_only = ON(params.get('available_only'));
  o.show_net = ON(params.get('show_net'));
  o.show_facility = ON(params.get('show_facility'));
  const sort = text('sort');
  if ((SORT_KEYS as readonly string[]).includes(sort)) o.sort = sort as SortKey;
  else if (sort) problems.push(`sort: one of ${SORT_KEYS.join(', ')}`);
  const locale = text('locale');
  if ((EMBED_LOCALES as readonly string[]).includes(locale)) o.locale = locale as EmbedOptions['locale'];
  else if (locale) problems.push(`locale: one of ${EMBED_LOCALES.join(', ')}`);
  const refresh = text('refresh');
  if (/^\d{1,4}$/.test(refresh) && Number(refresh) <= MAX_REFRESH_SECONDS) o.refresh = Number(refresh);
  else if (refresh) problems.push(`refresh: whole seconds from 0 to ${MAX_REFRESH_SECONDS}`);
  const theme = text('theme');
  if (Object.hasOwn(THEME_PRESETS, theme)) o.theme = theme as ThemePreset;
  else if (theme) problems.push(`theme: one of ${THEME_NAMES.join(', ')}`);
  o.colours = { ...THEME_PRESETS[o.theme] };
  for (const [name] of THEME_COLOURS) {
    const value = text(name);
    if (COLOUR.test(value)) o.colours[name] = value.toLowerCase();
    else if (value) problems.push(`${name}: a colour as #rrggbb`);
  }
  return { options: o, problems };
}

/** The widget's attributes for the options, after those of its source, in the order the snippet writes them. */
export function optionAttributes(o: EmbedOptions): [string, string][] {
  const out: [string, string][] = [];
  if (o.available_only) out.push(['available-only', '']);
  if (o.sort) out.push(['sort', o.sort]);
  if (o.locale) out.push(['locale', o.locale]);
  if (o.show_net) out.push(['show-net', '']);
  if (o.show_facility) out.push(['show-facility', '']);
  if (o.refresh > 0) out.push(['refresh', String(o.refresh)]);
  return out;
}

/** The custom properties of the theme: none when it is the widget's own light default, which needs no CSS. */
export function themeProperties(o: EmbedOptions): [string, string][] {
  const same = THEME_COLOURS.every(([name]) => o.colours[name] === THEME_PRESETS.light[name]);
  return same ? [] : THEME_COLOURS.map(([name, property]) => [property, o.colours[name]]);
}

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export interface SnippetSource {
  publicUrl: string;
  facilityId: string;
  /** The chosen key as the panel knows it (its prefix and hint): the partner pastes the full key in its place. */
  keyText?: string;
  /** The facility's current number of cards (listings, or those with free units for available-only): room reserved. */
  cards?: number;
  /**
   * False when the facility has nothing the show-facility header shows: the snippet then leaves show-facility out, and
   * the room for the header with it (an empty header reserved would collapse when the data comes).
   */
  facilityHeader?: boolean;
}

/**
 * The source's attributes: a key and the API, or a snapshot and its JWKS, pinned to the facility either way. A snapshot
 * embed with a partner's ref sends its rent links through the click URL, so they are credited as a key's are.
 */
export function sourceAttributes(o: EmbedOptions, s: SnippetSource): [string, string][] {
  if (o.source === 'snapshot') {
    const base = o.snapshot_base || 'https://cdn.example';
    const credited: [string, string][] = o.partner_ref
      ? [
          ['partner-ref', o.partner_ref],
          ['go-base', s.publicUrl],
        ]
      : [];
    return [
      ['src', `${base}/${s.facilityId}/listings.json`],
      ['keys-url', `${base}/keys.json`],
      ['facility', s.facilityId],
      ...credited,
    ];
  }
  return [
    ['api-key', s.keyText ?? 'YOUR_API_KEY'],
    ['api-base', s.publicUrl],
    ['facility', s.facilityId],
  ];
}

/** The tags partners paste: the script, a style rule when themed, and the element with its attributes. */
export function embedSnippet(chosen: EmbedOptions, s: SnippetSource): string {
  const o = s.facilityHeader === false ? { ...chosen, show_facility: false } : chosen;
  const cards: [string, string][] = s.cards === undefined ? [] : [['cards', String(Math.max(s.cards, 1))]];
  const attrs = [...sourceAttributes(o, s), ...cards, ...optionAttributes(o)]
    .map(([name, value]) => (value === '' ? name : `${name}="${attr(value)}"`))
    .join(' ');
  const theme = themeProperties(o);
  const rules = [
    ...(theme.length ? [`storage-listings { ${theme.map(([p, v]) => `${p}: ${v};`).join(' ')} }`] : []),
    ...(s.cards === undefined ? [] : [reserveCss(s.cards, o.show_facility)]),
  ];
  const style = rules.length ? `<style>\n${rules.join('\n')}\n</style>\n` : '';
  return `<script type="module" src="${attr(s.publicUrl)}/widget/storage-listings.js"></script>\n${style}<storage-listings ${attrs}></storage-listings>`;
}
