// <storage-listings>: a partner site's list of storage units, live from the API (a key) or from a signed snapshot.
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { SortKey } from '../../shared/sort.ts';
import type { Summary } from '../../shared/listing.ts';
import { arrange } from './arrange.ts';
import { actionOf, card, cardIdOf, type View } from './cards.ts';
import { absolute, type Source } from './data.ts';
import { WidgetError } from './errors.ts';
import type { StorageListingsEventMap as Events } from './events.ts';
import { hasWords, pickLocale, translator, type Strings, type Translate } from './i18n.ts';
import { focusAt, restoreFocus, type FocusAt } from './keep-focus.ts';
import { termsGiven, type ListingDetail, type Terms } from './listing.ts';
import { Loader } from './loader.ts';
import { headerBox, keepHeight, loadingView } from './loading.ts';
import { OnDemand } from './on-demand.ts';
import { messageFor, problemView } from './problem.ts';
import { LANGUAGE_PROPERTIES, SOURCE_PROPERTIES, stringsOf } from './properties.ts';
import { safeUrl } from './safe-url.ts';
import { SnapshotTerms } from './snapshot-terms.ts';
import { styles } from './storage-listings.styles.ts';
import { termsStyles } from './terms.styles.ts';

/**
 * Storage units with live prices, free units, photos and a rent link, for any web page.
 *
 * @summary `<storage-listings api-key="svc_live_..." api-base="https://api.example">` or `<storage-listings src=".../listings.json">`.
 *
 * @fires storage-listings-load - Listings were loaded (or changed on refresh). `detail: { listings }`, as shown.
 * @fires storage-listings-error - Loading failed. `detail: { status, code }`: HTTP status (0 without one) and a code
 *   such as `invalid_api_key`, `rate_limited`, `network_error`, `signature_invalid`, `unknown_kid`, `snapshot_expired`,
 *   `facility_mismatch`, `snapshot_rollback`.
 * @fires storage-listings-rent - A rent link was clicked. `detail: { listing, id, code, price, first_period_price,
 *   currency }` (`price`: the regular gross per period in minor units; `first_period_price`: the gross of the first
 *   period, a promotion's where one covers it). Cancelable: `preventDefault()` keeps the visitor on the page (to track
 *   the click or open your own flow).
 *
 * @slot - Fallback content, shown only where the element does not run (no JavaScript, or a blocked script): for
 *   example a link to the operator's own page. Hidden once the widget runs.
 *
 * @csspart listing - One card (`<li>`), carrying `data-listing-id`.
 * @csspart photo - The cover photo `<img>` of a card.
 * @csspart no-photo - What stands in for the cover photo of a listing without photos (labelled "No photo yet").
 * @csspart price - The gross price with its period ("329,00 zł / miesiąc"); with a promotion, the promoted one.
 * @csspart promotion - The winning promotion on a card: its title and the promoted price (which holds `price`).
 * @csspart regular-price - The regular price (`<s>`) struck through beside a promoted one.
 * @csspart unit-type - The unit type beside the area ("Medium unit").
 * @csspart features - Up to four of a card's features (`<ul>`), each an icon and its label.
 * @csspart move-in - The details dialog's "Due at move-in": each part and the total.
 * @csspart facility - The facility header of `show-facility`: address with a map link, hours, amenities.
 * @csspart free-units - The availability line ("3 units left", "Last unit", "Sold out").
 * @csspart rent-link - The rent `<a>`: its `href` is the operator's click URL (`/go/...?ref=`) in live mode and with
 *   `go-base`, else the listing's `rent_url`.
 * @csspart error - The box of an error state.
 * @csspart empty - The "No units available" box (a withdrawn facility's tombstone: part `withdrawn`, "No longer listed").
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
 * @cssproperty [--sl-promotion=#bf3989] - A promotion's title (dark pages: #f778ba).
 * @cssproperty [--sl-radius=0.5rem] - Corner radius of cards, buttons and the dialog.
 * @cssproperty [--sl-font=inherit] - Font family (the page's by default).
 * @cssproperty [--sl-font-size=1rem] - Base font size: every text (cards, header, dialog) and button scales with it.
 * @cssproperty [--sl-gap=1rem] - Space between cards.
 * @cssproperty [--sl-card-min-width=16rem] - Narrowest card before the grid drops a column.
 */
export class StorageListings extends LitElement {
  static override styles = [styles, termsStyles];

  /** Live mode: the partner's key, sent as the `X-API-Key` header (never in a URL). */
  @property({ attribute: 'api-key' }) apiKey?: string;
  /** Live mode: the API's base URL (`PUBLIC_URL`). Relative URLs resolve against the page. */
  @property({ attribute: 'api-base' }) apiBase?: string;
  /** Snapshot mode: URL of a snapshot `listings.json`. Takes precedence over `api-key`. */
  @property() src?: string;
  /**
   * Snapshot mode: URL of the publisher's JWKS (`keys.json`). When set, only a snapshot with a valid signature that
   * has not expired is shown.
   */
  @property({ attribute: 'keys-url' }) keysUrl?: string;
  /**
   * The facility id the page expects (`wro-1`). A snapshot of another facility, signed or not (as `snapshot verify
   * --facility` checks), or in live mode an API answer for another facility, is refused: `facility_mismatch`, the
   * same error state as a bad signature.
   */
  @property() facility?: string;
  /**
   * Snapshot mode: the lowest `version` accepted. An older file (a mirror serving an earlier one that has not
   * expired yet, as `snapshot verify --min-version` checks) is refused: `snapshot_rollback`, the same error state as
   * a bad signature. A value that is not a number: `invalid_config`. Not used in live mode.
   */
  @property({ type: Number, attribute: 'min-version' }) minVersion?: number;
  /** Only listings with free units (live: sent as `available=true`). */
  @property({ type: Boolean, attribute: 'available-only' }) availableOnly = false;
  /**
   * `price`, `-price`, `area`, `-area` or `code` (natural order: S-2 before S-10). Live: sent as `sort=`; snapshot:
   * sorted in the browser. Any other value keeps the operator's order.
   * @default the operator's order
   */
  @property() sort?: SortKey;
  /**
   * Show at most this many listings (always applied in the browser; the API has no such parameter).
   * @default all
   */
  @property({ type: Number }) limit?: number;
  /**
   * Cards to reserve room for until the data arrives: the panel's snippet writes the facility's current count, and its
   * style rule reserves them and, with `show-facility`, the header. Without it, the loading state is the README
   * placeholder's three cards and no header.
   * @default 3
   */
  @property({ type: Number }) cards?: number;
  /**
   * Language of the words (English, Polish and German built in; others fall back to English) and formatting of
   * numbers, money and periods (any BCP 47 locale). Without it, the widget follows the page's `lang` as it changes.
   * @default the closest `lang` around the element, then `<html lang>`, then the browser's language, then `en`
   */
  @property() locale?: string;
  /** Also show the net price and VAT rate (for B2B sites). */
  @property({ type: Boolean, attribute: 'show-net' }) showNet = false;
  /**
   * Text of the rent link.
   * @default "Rent", in the locale's language
   */
  @property({ attribute: 'rent-label' }) rentLabel?: string;
  /** Browsing context of the rent link (`_self`, `_top`, a frame name; empty for the same tab). */
  @property() target = '_blank';
  /**
   * `rel` of the rent link. To open rent pages in a named frame (`target="my-frame"`), set `rel=""`: Firefox opens a
   * `noopener` link in a new window instead of the frame.
   */
  @property() rel = 'noopener';
  /**
   * A snapshot widget's partner reference: with `go-base`, rent links go through the operator's click URL with it.
   * (`partner-ref`, not `ref`: frameworks such as React reserve `ref`.)
   */
  @property({ attribute: 'partner-ref' }) partnerRef?: string;
  /**
   * The contract's name of `partner-ref`; when both are set, `partner-ref` wins. An attribute only: React and Vue
   * reserve `ref` (set `partner-ref` from them).
   */
  @property({ attribute: 'ref' }) private contractRef?: string;
  /**
   * The operator's server (its PUBLIC_URL) whose `/go/` click URL a snapshot widget's rent links go through. Relative
   * URLs resolve against the page.
   */
  @property({ attribute: 'go-base' }) goBase?: string;
  /**
   * Re-fetch every N seconds (at least 1; 0: never) to keep prices and free units live. It goes on past a snapshot's
   * expiry (the expired state shows the publisher's next fresh file when it comes) and stops after a failure that
   * refreshing cannot mend (a rejected key, a bad signature).
   * @default off
   */
  @property({ type: Number }) refresh?: number;
  /**
   * `aria-level` of each card's title, so the cards fit the page's outline (2: under the page's `h1`; set `3` inside
   * an `h2` section).
   */
  @property({ type: Number, attribute: 'heading-level' }) headingLevel = 2;
  /**
   * Put one `<script type="application/ld+json">` into the element's light DOM for search engines: schema.org
   * `SelfStorage` by the facility's name with an `Offer` per listing shown (price as a decimal in major units,
   * `priceCurrency`, availability `InStock`/`SoldOut`, `url` = `rent_url` as the card links it: resolved against the
   * data's URL, none unless http(s)). Rewritten in place on refresh; removed while no listings are shown (loading, an
   * error state such as an expired snapshot or a revoked key, a withdrawn facility, an empty list). The operator's rental page, where each `url`
   * leads, carries the same business and offers with its address, hours, amenities and the price per period while
   * promotions run (`shared/structured-data-lean.ts` writes what both carry).
   */
  @property({ type: Boolean, attribute: 'structured-data' }) structuredData = false;
  /**
   * Show a header above the units with the facility's address and a plain link to OpenStreetMap (no map script or
   * tile is loaded), today's office and access hours with "open now" in the facility's time zone, and its amenities.
   */
  @property({ type: Boolean, attribute: 'show-facility' }) showFacility = false;
  /**
   * JSON object overriding any text, e.g. `strings='{"empty":"Nothing free right now"}'`. As a property, the object
   * itself or its JSON text (React and Vue set `strings='{...}'` as the property).
   */
  @property() strings?: Partial<Strings> | string;

  /** The listings on screen: the source's, filtered, ordered and limited. */
  @state() protected listings: Summary[] = [];

  private t: Translate = translator('en', undefined);
  private language = 'en';
  /** Words to pick again: on the first update, and when the page's `lang` has changed the language. */
  private languageStale = true;
  /** Follows the page's `lang` (single-page apps change `<html lang>`) while the element is in the page. */
  private readonly pageLang = new MutationObserver(() => this.followLang());
  /** Where focus was before this update (a card it moves loses focus: put back on the same listing). */
  private focusBefore: FocusAt | undefined;
  /** The listings the JSON-LD was last written for; false while none are shown. */
  private dataShown: Summary[] | false | undefined;
  /** The loading state's height, kept by an error or empty state that replaces it. */
  private reserved = 0;
  private readonly loader = new Loader(this, {
    source: () => this.source(),
    refresh: () => this.refresh,
    loaded: () => {
      // A snapshot carries every promotion with its times: which are active is decided now, and again as they change.
      this.terms.price(this.src ? (this.loader.all as ListingDetail[]) : [], this.loader.facility);
      this.listings = arrange(this.loader.all, this);
      this.emit('storage-listings-load', { listings: this.listings });
    },
    failed: (error) => this.emitError(error),
  });
  private readonly terms = new SnapshotTerms(this);
  private readonly parts = new OnDemand(this, {
    source: () => this.source(),
    details: () => this.loader.details,
    failed: (error) => this.emitError(error),
    rent: (event, listing) => this.onRent(event, listing),
    // A business with no offers says nothing true: none for a withdrawn facility (no facility) or an empty list.
    structuredData: () =>
      this.structuredData && this.loader.phase === 'ready' && this.loader.facility && this.listings.length
        ? { facility: this.loader.facility, listings: this.listings, base: this.base() }
        : undefined,
  });

  override connectedCallback(): void {
    super.connectedCallback();
    this.pageLang.observe(document.documentElement, { attributeFilter: ['lang'], subtree: true });
    this.followLang(); // it may have changed while the element was out of the page
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.pageLang.disconnect();
  }

  private followLang(): void {
    if (pickLocale(this.locale, this) === this.language) return;
    this.languageStale = true;
    this.requestUpdate();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    this.focusBefore = focusAt(this.renderRoot);
    if (this.languageStale || LANGUAGE_PROPERTIES.some((p) => changed.has(p))) {
      this.languageStale = false;
      this.language = pickLocale(this.locale, this);
      this.t = translator(this.language, {
        ...stringsOf(this.strings),
        ...(this.rentLabel ? { rent: this.rentLabel } : {}),
      });
    }
    if (!this.hasUpdated || SOURCE_PROPERTIES.some((p) => changed.has(p))) void this.loader.load(true);
    else if (changed.has('limit')) this.listings = arrange(this.loader.all, this);
    else if (changed.has('refresh')) this.loader.schedule();
  }

  protected override updated(changed: PropertyValues): void {
    restoreFocus(this.renderRoot, this.focusBefore);
    if (this.loader.phase === 'loading') this.reserved = this.offsetHeight;
    else if (this.reserved) keepHeight(this, this.renderRoot, this.reserved);
    // The JSON-LD holds what the cards show: none while none are (loading, refused, expired, revoked, withdrawn).
    const shown = this.loader.phase === 'ready' && this.listings;
    if (shown === this.dataShown && !changed.has('structuredData')) return;
    this.dataShown = shown;
    this.parts.writeStructuredData();
  }

  private source(): Source {
    const facility = this.facility || undefined;
    if (this.src) {
      const minVersion = this.minVersion ?? undefined; // null once the attribute is removed
      if (minVersion !== undefined && !Number.isFinite(minVersion))
        throw new WidgetError(0, 'invalid_config', 0, 'min-version');
      return { kind: 'snapshot', src: this.src, keysUrl: this.keysUrl || undefined, facility, minVersion };
    }
    if (this.apiKey && this.apiBase) {
      const { apiKey, apiBase, availableOnly, sort } = this;
      return { kind: 'live', apiKey, apiBase, availableOnly, sort, facility };
    }
    throw new WidgetError(0, 'invalid_config');
  }

  private emit<K extends keyof Events>(type: K, detail: Events[K]['detail'], cancelable = false): boolean {
    return this.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable }));
  }

  private emitError(error: WidgetError): void {
    this.emit('storage-listings-error', { status: error.status, code: error.code });
  }

  /** Every card's Details button and rent link, with one listener on the list (200 cards, no per-card closures). */
  private onGridClick = (event: MouseEvent): void => {
    const hit = actionOf(event);
    const id = hit && cardIdOf(hit.element);
    const listing = id ? this.listings.find((l) => l.id === id) : undefined;
    if (!hit || !listing) return;
    if (hit.action === 'rent') this.onRent(event, listing);
    else void this.parts.openDialog(listing, hit.element);
  };

  private onRent(event: MouseEvent, listing: Summary): void {
    const { id, code, price } = listing;
    const first = this.termsOf(listing).schedule[0]?.gross ?? price.gross;
    const detail = { listing, id, code, price: price.gross, first_period_price: first, currency: price.currency };
    if (!this.emit('storage-listings-rent', detail, true)) event.preventDefault();
  }

  /** What relative photo and rent URLs resolve against: the data's URL. */
  private base(): string {
    try {
      return absolute(this.src || this.apiBase || document.baseURI).href;
    } catch {
      return document.baseURI; // an unusable source URL is reported by load()
    }
  }

  private view(): View {
    return {
      t: this.t,
      locale: this.language,
      base: this.base(),
      showNet: this.showNet,
      target: this.target,
      rel: this.rel,
      newTab: this.target === '_blank' ? ` ${this.t('newTab')}` : '',
      headingLevel: Math.min(Math.max(Math.trunc(Number(this.headingLevel)) || 2, 1), 6),
      go: this.clickUrl(),
      terms: (listing) => this.termsOf(listing),
    };
  }

  /** Live: the API priced them for the instant it answered. A snapshot's: priced when loaded or when one changed. */
  private termsOf(listing: Summary): Terms {
    return this.terms.of(listing.id) ?? termsGiven(listing);
  }

  /** Live: through the API's server with the key's ref; a snapshot: through `go-base` with `partner-ref` (or `ref`). */
  private clickUrl(): View['go'] {
    const id = this.loader.facility?.id;
    const [ref, base] = this.src ? [this.partnerRef || this.contractRef, this.goBase] : [this.loader.ref, this.apiBase];
    if (!ref || !base || !id) return undefined;
    const e = encodeURIComponent;
    // Absolute already: a relative base resolves against the page, as the list request's does, not against the data's.
    return (code) => safeUrl(`${base.replace(/\/$/, '')}/go/${e(id)}/${e(code)}?ref=${e(ref)}`, document.baseURI);
  }

  private announcement(): string {
    const { phase, failure } = this.loader;
    if (phase === 'loading') return this.t('loading');
    if (phase === 'error' && failure) return messageFor(failure, this.t);
    const n = this.listings.length;
    return n ? this.t('shown', { n }, n) : this.t(this.loader.emptyState);
  }

  private content(v: View): TemplateResult {
    const { phase, failure, waiting, emptyState } = this.loader;
    if (phase === 'loading') return loadingView(this.cards, this.showNet, this.showFacility);
    if (phase === 'error' && failure) {
      const retry = { onRetry: () => void this.loader.load(true), waiting };
      return problemView(messageFor(failure, this.t), failure, this.t, retry);
    }
    if (!this.listings.length) return html`<p part=${emptyState} class="notice">${this.t(emptyState)}</p>`;
    // Keyed by listing id: a refresh that reorders the cards moves them, and focus stays on the listing it was on.
    const cards = repeat(
      this.listings,
      (l) => l.id,
      (l) => card(l, v),
    );
    return html`<ul class="grid" @click=${this.onGridClick}>${cards}</ul>`;
  }

  protected override render(): TemplateResult {
    const v = this.view();
    const ready = this.showFacility && this.loader.phase === 'ready';
    // the header's reserved box until its chunk has come
    const header = ready ? (this.parts.facilityHeader(this.loader.facility, v, Date.now()) ?? headerBox) : '';
    // The widget's own words are left to right on a right-to-left page; words it lacks (on <html lang="he">, English
    // around Hebrew numbers, money and periods) take the page's direction, as the formatted parts expect.
    // prettier-ignore
    return html`<div dir=${hasWords(this.language) ? 'ltr' : nothing}><div class="sr-only" role="status">${this.announcement()}</div>${header} ${this.content(v)} ${this.parts.renderDialog(v)}</div>`;
  }
}
