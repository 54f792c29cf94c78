// The Embed tab: a GET form of the widget's source, options and theme, the widget itself beside it on this facility's
// data (served by the panel's session, routes-embed.ts), and the snippet; <panel-embed> redraws both as the form changes.
import { html, type Html } from '../../http/pages/html.ts';
import {
  EMBED_LOCALES,
  embedSnippet,
  MAX_REFRESH_SECONDS,
  optionAttributes,
  THEME_COLOURS,
  THEME_NAMES,
  type EmbedOptions,
  type SnippetSource,
} from '../../../shared/embed-options.ts';
import { snippetCards, type CardCounts } from '../../../shared/embed-reserve.ts';
import { SORT_KEYS } from '../../../shared/sort.ts';
import type { KeyInfo } from '../../store/keys.ts';
import type { Texts } from '../i18n/i18n.ts';
import { errorList } from './layout.ts';

export interface EmbedPage {
  facilityId: string;
  publicUrl: string;
  keyPrefix: string;
  /** The facility's active keys, newest first. */
  keys: readonly KeyInfo[];
  options: EmbedOptions;
  problems: readonly string[];
  /** The facility's listings now: the snippet reserves room for as many cards. */
  cards: CardCounts;
  /** Whether the facility has anything the show-facility header shows (else the snippet leaves show-facility out). */
  facilityHeader: boolean;
}

/** How the snippet names a key the panel no longer has: its prefix and last characters, for the partner to replace. */
export const keyTextOf = (prefix: string, k: Pick<KeyInfo, 'hint'>) => `${prefix}_live_…${k.hint}`;

/** The preview's data comes from this path of the panel, as the API's would (routes-embed.ts). */
export const previewBase = (facilityId: string) => `/facilities/${encodeURIComponent(facilityId)}/preview`;

/** Where the snippet's data comes from, as the page chose it: a chosen key, else the first, else a snapshot. */
export function snippetSource(p: EmbedPage): SnippetSource {
  const key =
    p.keys.find((k) => k.id === p.options.source) ?? (p.options.source === 'snapshot' ? undefined : p.keys[0]);
  return {
    publicUrl: p.publicUrl,
    facilityId: p.facilityId,
    keyText: key ? keyTextOf(p.keyPrefix, key) : undefined,
    cards: snippetCards(p.options.available_only, p.cards),
    facilityHeader: p.facilityHeader,
  };
}

const selected = (on: boolean) => (on ? html` selected` : '');
const checked = (on: boolean) => (on ? html` checked` : '');

function sourceFields({ t }: Texts, p: EmbedPage, snapshot: boolean): Html {
  const o = p.options;
  return html`<fieldset>
<legend>${t.embedSource}</legend>
<label for="embed-source">${t.embedSourceLabel}</label>
<select id="embed-source" name="source">
${p.keys.map((k) => html`<option value="${k.id}" data-key-text="${keyTextOf(p.keyPrefix, k)}"${selected(o.source === k.id)}>${k.label || t.unlabelled} (…${k.hint})</option>`)}
<option value="snapshot"${selected(snapshot)}>${t.embedSnapshotSource}</option>
</select>
${p.keys.length === 0 ? html`<p class="muted">${t.embedNoKeys}</p>` : ''}
<p class="muted" id="embed-key-note">${t.embedKeyNote}</p>
<label for="embed-snapshot-base">${t.embedSnapshotBase}</label>
<input id="embed-snapshot-base" name="snapshot_base" type="url" inputmode="url" placeholder="https://cdn.example" value="${o.snapshot_base}">
<label for="embed-partner-ref">${t.embedPartnerRef}</label>
<select id="embed-partner-ref" name="partner_ref" aria-describedby="embed-partner-ref-note">
<option value="">${t.embedNoPartner}</option>
${p.keys.map((k) => html`<option value="${k.ref}"${selected(o.partner_ref === k.ref)}>${k.label || t.unlabelled} (${k.ref})</option>`)}
</select>
<p class="muted" id="embed-partner-ref-note">${t.embedPartnerRefNote}</p>
</fieldset>`;
}

function optionFields({ t }: Texts, o: EmbedOptions): Html {
  const box = (name: string, on: boolean, label: string) =>
    html`<div class="check"><input type="checkbox" id="embed-${name}" name="${name}" value="1"${checked(on)}><label for="embed-${name}">${label}</label></div>`;
  return html`<fieldset>
<legend>${t.embedOptions}</legend>
${box('available_only', o.available_only, t.embedAvailableOnly)}
${box('show_net', o.show_net, t.embedShowNet)}
${box('show_facility', o.show_facility, t.embedShowFacility)}
<label for="embed-sort">${t.embedSort}</label>
<select id="embed-sort" name="sort"><option value="">${t.embedSortDefault}</option>${SORT_KEYS.map((k) => html`<option value="${k}"${selected(o.sort === k)}>${t.embedSorts[k]}</option>`)}</select>
<label for="embed-locale">${t.embedLocale}</label>
<select id="embed-locale" name="locale"><option value="">${t.embedLocalePage}</option>${EMBED_LOCALES.map((l) => html`<option value="${l}" lang="${l}"${selected(o.locale === l)}>${t.embedLocales[l]}</option>`)}</select>
<label for="embed-refresh">${t.embedRefresh}</label>
<input id="embed-refresh" name="refresh" type="number" min="0" max="${MAX_REFRESH_SECONDS}" step="1" value="${o.refresh}">
</fieldset>`;
}

function themeFields({ t }: Texts, o: EmbedOptions): Html {
  return html`<fieldset>
<legend>${t.embedTheme}</legend>
<label for="embed-theme">${t.embedPreset}</label>
<select id="embed-theme" name="theme">${THEME_NAMES.map((n) => html`<option value="${n}"${selected(o.theme === n)}>${t.embedThemes[n]}</option>`)}</select>
<div class="colours">${THEME_COLOURS.map(
    ([name]) =>
      html`<div><label for="embed-${name}">${t.embedColours[name]}</label><input type="color" id="embed-${name}" name="${name}" value="${o.colours[name]}"></div>`,
  )}</div>
</fieldset>`;
}

/** The widget on the panel's own preview route: the options' attributes, with no key of any partner in the page. */
function preview(tx: Texts, p: EmbedPage): Html {
  const attrs = optionAttributes(p.options).map(([n, v]) => html` ${n}${v === '' ? '' : html`="${v}"`}`);
  return html`<section class="preview" aria-labelledby="preview-title">
<h3 id="preview-title">${tx.t.embedPreview}</h3>
<p class="muted">${tx.t.embedPreviewNote}</p>
<div class="preview-frame" data-preview-frame>
<storage-listings api-key="preview" api-base="${previewBase(p.facilityId)}" facility="${p.facilityId}"${attrs}><p>${tx.t.embedPreviewNeedsScript}</p></storage-listings>
</div>
</section>`;
}

export function embedBody(tx: Texts, p: EmbedPage): Html {
  const { t } = tx;
  const snapshot = p.options.source === 'snapshot' || p.keys.length === 0;
  const options = snapshot ? { ...p.options, source: 'snapshot' } : p.options;
  const snippet = embedSnippet(options, snippetSource({ ...p, options }));
  return html`<p>${t.embedIntro}</p>
${p.problems.length ? errorList(t.embedProblems, p.problems) : ''}
<panel-embed facility="${p.facilityId}" public-url="${p.publicUrl}" cards="${String(p.cards.all)}" cards-available="${String(p.cards.available)}"${p.facilityHeader ? '' : html` no-facility-header`}>
<div class="embed">
<form method="get" class="stack embed-form" aria-label="${t.embedForm}">
${sourceFields(tx, p, snapshot)}
${optionFields(tx, p.options)}
${themeFields(tx, p.options)}
<button type="submit">${t.embedUpdate}</button>
</form>
${preview(tx, p)}
</div>
<label for="embed">${t.embedSnippet}</label>
<textarea id="embed" readonly rows="6">${snippet}</textarea>
<panel-copy for="embed" label="${t.copy}" done-label="${t.copied}"></panel-copy>
</panel-embed>`;
}
