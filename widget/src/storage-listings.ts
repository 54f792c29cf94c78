// <storage-listings>: a partner site's list of storage units, live from the API (a key) or from a signed snapshot.
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { Detail, Summary } from '../../server/schemas/listing.ts';
import { arrange } from './arrange.ts';
import { actionOf, card, cardIdOf, skeletonCard, type View } from './cards.ts';
import { absolute, loadDetail, loadListings, type Source } from './data.ts';
import { detailsView, type DetailsView } from './details.ts';
import { asWidgetError, WidgetError } from './errors.ts';
import { pickLocale, translator, type Strings, type Translate } from './i18n.ts';
import { messageFor, problemView } from './problem.ts';
import { styles } from './storage-listings.styles.ts';

type Phase = 'loading' | 'ready' | 'error';

/** Re-fetching more often than this would only burn the partner's rate limit. */
const MIN_REFRESH_SECONDS = 1;
/** Changing any of these means other data: fetch again, behind the skeleton. */
const SOURCE_PROPERTIES = ['apiKey', 'apiBase', 'src', 'keysUrl', 'availableOnly', 'sort'] as const;
const LANGUAGE_PROPERTIES = ['locale', 'strings', 'rentLabel'] as const;

/** Reads the `strings` attribute as JSON; a malformed value is ignored rather than thrown into the page. */
const jsonObject = {
  fromAttribute(value: string | null): Partial<Strings> | undefined {
    try {
      const parsed: unknown = JSON.parse(value ?? '');
      return parsed && typeof parsed === 'object' ? (parsed as Partial<Strings>) : undefined;
    } catch {
      return undefined;
    }
  },
};

/**
 * Storage units with live prices, free units, photos and a rent link, for any web page.
 *
 * @summary `<storage-listings api-key="svc_live_..." api-base="https://api.example">` or `<storage-listings src=".../listings.json">`.
 *
 * @fires storage-listings-load - Listings were loaded (or changed on refresh). `detail: { listings }`, as shown.
 * @fires storage-listings-error - Loading failed. `detail: { status, code }`: HTTP status (0 without one) and a code
 *   such as `invalid_api_key`, `rate_limited`, `network_error`, `signature_invalid`, `unknown_kid`, `snapshot_expired`.
 * @fires storage-listings-rent - A rent link was clicked. `detail: { listing }`. Cancelable: `preventDefault()` keeps
 *   the visitor on the page (to track the click or open your own flow).
 *
 * @csspart listing - One card (`<li>`), carrying `data-listing-id`.
 * @csspart photo - The cover photo `<img>` of a card.
 * @csspart price - The gross price with its period ("329,00 zł / miesiąc").
 * @csspart free-units - The availability line ("3 units left", "Last unit", "Sold out").
 * @csspart rent-link - The rent `<a>`, whose `href` is the listing's `rent_url`.
 * @csspart error - The box of an error state.
 * @csspart empty - The "No units available" box.
 *
 * @cssproperty [--sl-accent=#0a66c2] - Buttons, links and focus rings (dark pages: #4493f8).
 * @cssproperty [--sl-accent-text=#ffffff] - Text on the accent colour (dark pages: #0d1117).
 * @cssproperty [--sl-text=#1f2328] - Text colour (dark pages: #e6edf3).
 * @cssproperty [--sl-muted=#59636e] - Secondary text: code, area, captions (dark pages: #9198a1).
 * @cssproperty [--sl-bg=#ffffff] - Card, message and dialog background (dark pages: #151b23).
 * @cssproperty [--sl-surface=#f6f8fa] - Photo placeholders and skeletons (dark pages: #212830).
 * @cssproperty [--sl-border=#d1d9e0] - Card and dialog borders (dark pages: #3d444d).
 * @cssproperty [--sl-available=#1a7f37] - "3 units left".
 * @cssproperty [--sl-low=#9a6700] - "Last unit".
 * @cssproperty [--sl-sold-out=#cf222e] - "Sold out" and error accents.
 * @cssproperty [--sl-radius=0.5rem] - Corner radius of cards, buttons and the dialog.
 * @cssproperty [--sl-font=inherit] - Font family (the page's by default).
 * @cssproperty [--sl-font-size=1rem] - Base font size.
 * @cssproperty [--sl-gap=1rem] - Space between cards.
 * @cssproperty [--sl-card-min-width=16rem] - Narrowest card before the grid drops a column.
 */
export class StorageListings extends LitElement {
  static override styles = styles;

  static override properties = {
    apiKey: { attribute: 'api-key' },
    apiBase: { attribute: 'api-base' },
    src: {},
    keysUrl: { attribute: 'keys-url' },
    availableOnly: { type: Boolean, attribute: 'available-only' },
    sort: {},
    limit: { type: Number },
    locale: {},
    showNet: { type: Boolean, attribute: 'show-net' },
    rentLabel: { attribute: 'rent-label' },
    target: {},
    rel: {},
    refresh: { type: Number },
    headingLevel: { type: Number, attribute: 'heading-level' },
    strings: { attribute: 'strings', converter: jsonObject },
    phase: { state: true },
    listings: { state: true },
    failure: { state: true },
    waiting: { state: true },
    opened: { state: true },
    detail: { state: true },
    detailFailure: { state: true },
    photo: { state: true },
  };

  /** Live mode: the partner's API key, sent as `X-API-Key`. */
  declare apiKey: string | undefined;
  /** Live mode: the API's base URL (PUBLIC_URL). */
  declare apiBase: string | undefined;
  /** Snapshot mode: URL of a snapshot `listings.json` (takes precedence over live mode). */
  declare src: string | undefined;
  /** Snapshot mode: URL of the publisher's JWKS; when set, only a valid, unexpired signed snapshot is shown. */
  declare keysUrl: string | undefined;
  /** Only listings with free units. */
  declare availableOnly: boolean;
  /** `price`, `-price`, `area`, `-area` or `code`; the operator's order when unset. */
  declare sort: string | undefined;
  /** At most this many listings. */
  declare limit: number | undefined;
  /** BCP 47 locale for words and numbers; default: `<html lang>`, then the browser's language, then `en`. */
  declare locale: string | undefined;
  /** Also show the net price and VAT rate (B2B sites). */
  declare showNet: boolean;
  /** The rent link's text (default: the locale's "Rent"). */
  declare rentLabel: string | undefined;
  /** Browsing context of the rent link; default `_blank`, `""` for the same tab. */
  declare target: string;
  /** `rel` of the rent link; default `noopener`. */
  declare rel: string;
  /** Re-fetch every this many seconds (at least 1); 0 or unset: never. */
  declare refresh: number | undefined;
  /** `aria-level` of each card's title (default 3), to fit the page's outline. */
  declare headingLevel: number;
  /** Per-instance string overrides, e.g. `{ "rent": "Book now" }` (property, or JSON in the attribute). */
  declare strings: Partial<Strings> | undefined;

  declare protected phase: Phase;
  declare protected listings: Summary[];
  declare protected failure: WidgetError | null;
  declare protected waiting: boolean;
  declare protected opened: Summary | null;
  declare protected detail: Detail | null;
  declare protected detailFailure: WidgetError | null;
  declare protected photo: number;

  private t: Translate = translator('en', undefined);
  private language = 'en';
  private all: Summary[] = [];
  private details = new Map<string, Detail>();
  private version: string | undefined;
  private loads = 0;
  private loading: AbortController | undefined;
  private detailLoading: AbortController | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryAt = 0;
  private opener: HTMLElement | undefined;

  constructor() {
    super();
    this.availableOnly = false;
    this.showNet = false;
    this.target = '_blank';
    this.rel = 'noopener';
    this.headingLevel = 3;
    this.phase = 'loading';
    this.listings = [];
    this.failure = null;
    this.waiting = false;
    this.opened = null;
    this.detail = null;
    this.detailFailure = null;
    this.photo = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // Moved in the page (or re-attached): listings on screen just resume refreshing; anything else loads again.
    if (this.hasUpdated) {
      if (this.phase === 'ready') this.schedule();
      else void this.load(true);
    }
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.loading?.abort();
    this.detailLoading?.abort();
    clearTimeout(this.refreshTimer);
    clearTimeout(this.retryTimer);
    document.removeEventListener('visibilitychange', this.tick);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (!this.hasUpdated || LANGUAGE_PROPERTIES.some((p) => changed.has(p))) {
      this.language = pickLocale(this.locale);
      this.t = translator(this.language, { ...this.strings, ...(this.rentLabel ? { rent: this.rentLabel } : {}) });
    }
    if (!this.hasUpdated || SOURCE_PROPERTIES.some((p) => changed.has(p))) void this.load(true);
    else if (changed.has('limit')) this.listings = arrange(this.all, this);
    else if (changed.has('refresh')) this.schedule();
  }

  /** Fetches the listings; `fresh` (new source, retry) shows the skeleton, a refresh updates in place. */
  private async load(fresh: boolean): Promise<void> {
    const run = ++this.loads;
    this.loading?.abort();
    const controller = (this.loading = new AbortController());
    clearTimeout(this.refreshTimer);
    if (fresh) {
      this.phase = 'loading';
      this.version = undefined;
    }
    try {
      // Async even when the configuration is wrong, so no event ever fires in the middle of an update.
      const loaded = await Promise.resolve().then(() => loadListings(this.source(), controller.signal));
      if (run !== this.loads) return;
      if (loaded.version !== this.version || this.phase !== 'ready') {
        this.version = loaded.version;
        this.all = loaded.listings;
        this.details = new Map(loaded.complete ? loaded.listings.map((l) => [l.id, l as Detail]) : []);
        this.listings = arrange(this.all, this);
        this.failure = null;
        this.phase = 'ready';
        this.emit('storage-listings-load', { listings: this.listings });
      }
    } catch (error) {
      if (run === this.loads) this.fail(asWidgetError(error));
    } finally {
      if (run === this.loads) this.schedule();
    }
  }

  private source(): Source {
    if (this.src) return { kind: 'snapshot', src: this.src, keysUrl: this.keysUrl || undefined };
    if (this.apiKey && this.apiBase) {
      const { apiKey, apiBase, availableOnly, sort } = this;
      return { kind: 'live', apiKey, apiBase, availableOnly, sort };
    }
    throw new WidgetError(0, 'invalid_config');
  }

  private fail(error: WidgetError): void {
    // A refresh that fails for a passing reason keeps the listings on screen; anything else replaces them.
    if (!error.transient || this.phase !== 'ready') {
      this.phase = 'error';
      this.failure = error;
    }
    this.retryAt = Date.now() + error.retryAfter * 1000;
    this.waiting = error.retryAfter > 0;
    clearTimeout(this.retryTimer);
    if (this.waiting) this.retryTimer = setTimeout(() => (this.waiting = false), error.retryAfter * 1000);
    this.emit('storage-listings-error', { status: error.status, code: error.code });
  }

  private schedule(): void {
    clearTimeout(this.refreshTimer);
    const seconds = Number(this.refresh);
    if (!(seconds > 0) || !this.isConnected || (this.phase === 'error' && !this.failure?.transient)) return;
    const delay = Math.max(seconds, MIN_REFRESH_SECONDS) * 1000;
    this.refreshTimer = setTimeout(this.tick, Math.max(delay, this.retryAt - Date.now()));
  }

  /** A refresh is due: do it now, or when the visitor comes back to a hidden tab. */
  private tick = (): void => {
    if (document.visibilityState === 'hidden') {
      document.addEventListener('visibilitychange', this.tick, { once: true });
    } else {
      void this.load(false);
    }
  };

  private emit(type: string, detail: unknown, cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
  }

  private async openDetails(listing: Summary, opener: HTMLElement): Promise<void> {
    this.opener = opener;
    this.opened = listing;
    this.photo = 0;
    this.detail = this.details.get(listing.id) ?? null;
    this.detailFailure = null;
    await this.updateComplete;
    const dialog = this.renderRoot.querySelector('dialog');
    if (dialog && !dialog.open) dialog.showModal();
    if (!this.detail) await this.fetchDetail(listing);
  }

  private async fetchDetail(listing: Summary): Promise<void> {
    this.detailLoading?.abort();
    const controller = (this.detailLoading = new AbortController());
    this.detailFailure = null;
    try {
      const source = this.source();
      if (source.kind !== 'live') throw new WidgetError(0, 'invalid_response'); // snapshots carry every Detail
      const detail = await loadDetail(source, listing.id, controller.signal);
      this.details.set(listing.id, detail);
      if (this.opened?.id === listing.id) this.detail = detail;
    } catch (error) {
      if (controller.signal.aborted) return;
      const failure = asWidgetError(error);
      if (this.opened?.id === listing.id) this.detailFailure = failure;
      this.emit('storage-listings-error', { status: failure.status, code: failure.code });
    }
  }

  private closeDetails = (): void => this.renderRoot.querySelector('dialog')?.close();

  private onDialogClose = (): void => {
    this.detailLoading?.abort();
    this.opened = null;
    if (this.opener?.isConnected) this.opener.focus();
  };

  /** A click on the dialog element itself is a click on its backdrop (the content fills the box). */
  private onDialogClick = (event: MouseEvent): void => {
    if (event.target === event.currentTarget) this.closeDetails();
    else if (this.opened && actionOf(event)?.action === 'rent') this.onRent(event, this.opened);
  };

  /** Every card's Details button and rent link, with one listener on the list (200 cards, no per-card closures). */
  private onGridClick = (event: MouseEvent): void => {
    const hit = actionOf(event);
    const id = hit && cardIdOf(hit.element);
    const listing = id ? this.listings.find((l) => l.id === id) : undefined;
    if (!hit || !listing) return;
    if (hit.action === 'rent') this.onRent(event, listing);
    else void this.openDetails(listing, hit.element);
  };

  private onRent(event: MouseEvent, listing: Summary): void {
    if (!this.emit('storage-listings-rent', { listing }, true)) event.preventDefault();
  }

  private view(): View {
    let base = document.baseURI;
    try {
      base = absolute(this.src || this.apiBase || base).href;
    } catch {
      // an unusable source URL is reported by load(); keep the page's base here
    }
    return {
      t: this.t,
      locale: this.language,
      base,
      showNet: this.showNet,
      target: this.target,
      rel: this.rel,
      headingLevel: Math.min(Math.max(Math.trunc(Number(this.headingLevel)) || 3, 1), 6),
    };
  }

  private announcement(): string {
    if (this.phase === 'loading') return this.t('loading');
    if (this.phase === 'error' && this.failure) return messageFor(this.failure, this.t);
    const n = this.listings.length;
    return n ? this.t('shown', { n }, n) : this.t('empty');
  }

  private content(v: View): TemplateResult {
    if (this.phase === 'loading') {
      const count = Math.min(Number(this.limit) > 0 ? Number(this.limit) : 3, 6);
      return html`<ul class="grid" aria-hidden="true">
        ${Array.from({ length: count }, () => skeletonCard(this.showNet))}
      </ul>`;
    }
    if (this.phase === 'error' && this.failure) {
      const retry = { onRetry: () => void this.load(true), waiting: this.waiting };
      return problemView(messageFor(this.failure, this.t), this.failure, this.t, retry);
    }
    if (!this.listings.length) return html`<p part="empty" class="notice">${this.t('empty')}</p>`;
    return html`<ul class="grid" @click=${this.onGridClick}>
      ${repeat(
        this.listings,
        (listing) => listing.id,
        (listing) => card(listing, v),
      )}
    </ul>`;
  }

  private dialogContent(v: View): TemplateResult | typeof nothing {
    const listing = this.opened;
    if (!listing) return nothing;
    const dv: DetailsView = {
      ...v,
      photo: this.photo,
      onPhoto: (index) => (this.photo = index),
      onClose: this.closeDetails,
    };
    const failure = this.detailFailure;
    const pending = failure
      ? problemView(failure.status === 404 ? this.t('errorNotFound') : messageFor(failure, this.t), failure, this.t, {
          onRetry: () => void this.fetchDetail(listing),
          waiting: false,
        })
      : html`<p class="muted">${this.t('loading')}</p>`;
    return detailsView(listing, this.detail, pending, dv);
  }

  protected override render(): TemplateResult {
    const v = this.view();
    return html`<div class="sr-only" role="status">${this.announcement()}</div>
      ${this.content(v)}
      <dialog aria-labelledby="details-title" @close=${this.onDialogClose} @click=${this.onDialogClick}>
        ${this.dialogContent(v)}
      </dialog>`;
  }
}
