// <panel-embed>: the Embed tab's configurator live: as the form changes, the preview widget takes the new attributes
// and theme and the snippet is rewritten, with the code the server renders them with (shared/embed-options.ts).
import { LitElement, nothing } from 'lit';
import { property } from 'lit/decorators.js';
import { snippetCards } from '../../shared/embed-reserve.ts';
import {
  embedSnippet,
  optionAttributes,
  readEmbedOptions,
  THEME_COLOURS,
  THEME_PRESETS,
  themeProperties,
  type EmbedOptions,
  type ThemePreset,
} from '../../shared/embed-options.ts';

/** Every attribute the configurator may set on the preview: those not named now are removed. */
const OPTION_ATTRIBUTES = ['available-only', 'sort', 'locale', 'show-net', 'show-facility', 'refresh'];

/**
 * Wraps the server's GET form, the preview's `<storage-listings>` (in `[data-preview-frame]`) and the snippet's
 * `textarea#embed`. Without JavaScript the form's submit renders the same snippet on the server.
 */
export class PanelEmbed extends LitElement {
  /** The facility's id, which the snippet pins. */
  @property() facility = '';
  /** The API's PUBLIC_URL, which the snippet's script and api-base name. */
  @property({ attribute: 'public-url' }) publicUrl = '';
  /** The facility's listings now, all and with free units: the snippet reserves room for as many cards. */
  @property({ type: Number }) cards = 0;
  @property({ type: Number, attribute: 'cards-available' }) cardsAvailable = 0;
  /** The facility has nothing the show-facility header shows: the snippet leaves show-facility out. */
  @property({ type: Boolean, attribute: 'no-facility-header' }) noFacilityHeader = false;

  constructor() {
    super();
    this.addEventListener('input', (event) => this.changed(event));
    this.addEventListener('change', (event) => this.changed(event));
    this.addEventListener('submit', (event) => {
      event.preventDefault();
      this.apply();
    });
  }

  // Light DOM: the form, preview and snippet are the server's; this element keeps them in step.
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override render() {
    return nothing;
  }

  protected override firstUpdated(): void {
    this.apply();
  }

  private form(): HTMLFormElement | null {
    return this.querySelector('form');
  }

  private changed(event: Event): void {
    const target = event.target as HTMLInputElement | HTMLSelectElement;
    // A preset fills the four colours, which the operator may then change one by one.
    if (target.name === 'theme') this.fillColours(target.value);
    this.apply();
  }

  private fillColours(preset: string): void {
    const form = this.form();
    if (!form || !Object.hasOwn(THEME_PRESETS, preset)) return;
    for (const [name] of THEME_COLOURS) {
      const input = form.elements.namedItem(name) as HTMLInputElement | null;
      if (input) input.value = THEME_PRESETS[preset as ThemePreset][name];
    }
  }

  /** The form's options now: read by the same rules as the server reads its query. */
  private options(): { options: EmbedOptions; query: URLSearchParams } {
    const form = this.form();
    const query = new URLSearchParams();
    if (form)
      for (const [name, value] of new FormData(form)) if (typeof value === 'string' && value) query.append(name, value);
    return { options: readEmbedOptions(query).options, query };
  }

  private apply(): void {
    const { options, query } = this.options();
    this.updatePreview(options);
    const source = this.querySelector<HTMLSelectElement>('select[name="source"]');
    const keyText = source?.selectedOptions[0]?.dataset.keyText;
    const snippet = this.querySelector<HTMLTextAreaElement>('textarea#embed');
    if (snippet) {
      const chosen = { ...options, source: keyText ? options.source : 'snapshot' };
      const cards = snippetCards(options.available_only, { all: this.cards, available: this.cardsAvailable });
      const facilityHeader = !this.noFacilityHeader;
      snippet.value = embedSnippet(chosen, {
        publicUrl: this.publicUrl,
        facilityId: this.facility,
        keyText,
        cards,
        facilityHeader,
      });
    }
    history.replaceState(history.state, '', `${location.pathname}?${query.toString()}`);
  }

  private updatePreview(options: EmbedOptions): void {
    const widget = this.querySelector('storage-listings');
    if (widget) {
      const wanted = new Map(optionAttributes(options));
      for (const name of OPTION_ATTRIBUTES) {
        const value = wanted.get(name);
        if (value === undefined) widget.removeAttribute(name);
        else if (widget.getAttribute(name) !== value) widget.setAttribute(name, value);
      }
    }
    // Custom properties through the CSSOM, which the CSP allows (a style attribute in the markup it would refuse).
    const frame = this.querySelector<HTMLElement>('[data-preview-frame]');
    if (!frame) return;
    const theme = new Map(themeProperties(options));
    for (const [name, property] of THEME_COLOURS) {
      const value = theme.get(property);
      if (value) frame.style.setProperty(property, value);
      else frame.style.removeProperty(property);
      if (name === 'bg') frame.style.setProperty('background', options.colours.bg);
    }
    frame.dataset.theme = options.theme;
  }
}
