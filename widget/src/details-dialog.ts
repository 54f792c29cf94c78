// The details dialog of <storage-listings>: which listing it shows, its Detail (at hand from a snapshot, or fetched when
// opened), the photo on show, and focus back on the button that opened it once it closes.
import { html, nothing, type ReactiveController, type ReactiveElement, type TemplateResult } from 'lit';
import type { Detail, Summary } from '../../shared/listing.ts';
import { actionOf, type View } from './cards.ts';
import { loadDetail, type Source } from './data.ts';
import { detailsView, type DetailsView } from './details.ts';
import { detailsStyles } from './details.styles.ts';
import { asWidgetError, WidgetError } from './errors.ts';
import { messageFor, problemView } from './problem.ts';

/** What the dialog needs from the element. */
export interface DialogOptions {
  /** The data source the attributes name; throws a WidgetError when they name none. */
  source: () => Source;
  /** Details at hand by listing id (the loader's): read before fetching, added to after. */
  details: () => Map<string, Detail>;
  failed: (error: WidgetError) => void;
  /** A click on the dialog's rent link. */
  rent: (event: MouseEvent, listing: Summary) => void;
}

export class DetailsDialog implements ReactiveController {
  private opened: Summary | null = null;
  private detail: Detail | null = null;
  private failure: WidgetError | null = null;
  /** Index of the photo on show. */
  private photo = 0;
  private opener: HTMLElement | undefined;
  private loading: AbortController | undefined;

  constructor(
    private readonly host: ReactiveElement,
    private readonly opts: DialogOptions,
  ) {
    host.addController(this);
    // Its look comes with its chunk, added to the element's stylesheets: most visitors never open a dialog.
    const root = host.renderRoot as ShadowRoot;
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, detailsStyles.styleSheet!];
  }

  /**
   * Closes the dialog: removing a dialog from the page fires no close, so it would be open (and not modal) once the
   * element is put back, as frameworks do when they move it. Focus has left with the element: none to give back.
   */
  hostDisconnected(): void {
    this.loading?.abort();
    this.opener = undefined;
    this.close();
  }

  /** Shows `listing`; focus goes back to `opener` on close. */
  async open(listing: Summary, opener: HTMLElement): Promise<void> {
    this.opener = opener;
    this.opened = listing;
    this.photo = 0;
    this.detail = this.opts.details().get(listing.id) ?? null;
    this.failure = null;
    this.host.requestUpdate();
    await this.host.updateComplete;
    const dialog = this.element();
    if (dialog && !dialog.open) dialog.showModal();
    if (!this.detail) await this.fetch(listing);
  }

  private element(): HTMLDialogElement | null {
    return this.host.renderRoot.querySelector('dialog');
  }

  private async fetch(listing: Summary): Promise<void> {
    this.loading?.abort();
    const controller = (this.loading = new AbortController());
    this.failure = null;
    this.host.requestUpdate();
    try {
      const source = this.opts.source();
      if (source.kind !== 'live') throw new WidgetError(0, 'invalid_response'); // snapshots carry every Detail
      const detail = await loadDetail(source, listing.id, controller.signal);
      this.opts.details().set(listing.id, detail);
      if (this.opened?.id === listing.id) {
        this.detail = detail;
        this.host.requestUpdate();
      }
    } catch (error) {
      if (controller.signal.aborted) return;
      const failure = asWidgetError(error);
      if (this.opened?.id === listing.id) {
        this.failure = failure;
        this.host.requestUpdate();
      }
      this.opts.failed(failure);
    }
  }

  private close = (): void => this.element()?.close();

  private onClose = (): void => {
    this.loading?.abort();
    this.opened = null;
    this.host.requestUpdate();
    if (this.opener?.isConnected) this.opener.focus();
  };

  /** A click on the dialog element itself is a click on its backdrop (the content fills the box). */
  private onClick = (event: MouseEvent): void => {
    if (event.target === event.currentTarget) this.close();
    else if (this.opened && actionOf(event)?.action === 'rent') this.opts.rent(event, this.opened);
  };

  private content(v: View): TemplateResult | typeof nothing {
    const listing = this.opened;
    if (!listing) return nothing;
    const dv: DetailsView = {
      ...v,
      photo: this.photo,
      onPhoto: (index) => {
        this.photo = index;
        this.host.requestUpdate();
      },
      onClose: this.close,
    };
    const failure = this.failure;
    const pending = failure
      ? problemView(failure.status === 404 ? v.t('errorNotFound') : messageFor(failure, v.t), failure, v.t, {
          onRetry: () => void this.fetch(listing),
          waiting: false,
        })
      : html`<p class="muted">${v.t('loading')}</p>`;
    return detailsView(listing, this.detail, pending, dv);
  }

  render(v: View): TemplateResult {
    return html`<dialog aria-labelledby="details-title" @close=${this.onClose} @click=${this.onClick}>
      ${this.content(v)}
    </dialog>`;
  }
}
