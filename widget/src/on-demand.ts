// The parts a visitor may never use (the details dialog, the facility header, the JSON-LD), loaded as chunks on first
// need: a dynamic import() resolves against the module's own URL, so they come from where the widget came from.
import type { ReactiveElement, TemplateResult } from 'lit';
import type { Summary } from '../../shared/listing.ts';
import type { View } from './cards.ts';
import type { DetailsDialog, DialogOptions } from './details-dialog.ts';
import { WidgetError } from './errors.ts';
import type { facilityHeader } from './facility-header.ts';
import type { Facility } from './listing.ts';

export interface OnDemandOptions extends DialogOptions {
  /** What the JSON-LD holds now; undefined while `structured-data` is off. */
  structuredData: () => { facility: Facility | undefined; listings: readonly Summary[] } | undefined;
}

export class OnDemand {
  private dialog: DetailsDialog | undefined;
  private header: typeof facilityHeader | undefined;
  private headerLoading = false;
  private jsonLd: HTMLScriptElement | undefined;

  constructor(
    private readonly host: ReactiveElement,
    private readonly opts: OnDemandOptions,
  ) {}

  /** The facility header, or undefined while its chunk loads (the host renders again once it has come). */
  facilityHeader(): typeof facilityHeader | undefined {
    if (!this.header && !this.headerLoading) {
      this.headerLoading = true;
      import('./facility-header.ts').then(
        (m) => ((this.header = m.facilityHeader), this.host.requestUpdate()),
        () => (this.headerLoading = false), // unreachable chunk: the next render tries again
      );
    }
    return this.header;
  }

  async openDialog(listing: Summary, opener: HTMLElement): Promise<void> {
    try {
      const { DetailsDialog } = await import('./details-dialog.ts');
      this.dialog ??= new DetailsDialog(this.host, this.opts);
    } catch {
      return this.opts.failed(new WidgetError(0, 'network_error'));
    }
    await this.dialog.open(listing, opener);
  }

  renderDialog(v: View): TemplateResult | undefined {
    return this.dialog?.render(v);
  }

  /** Writes the JSON-LD script, or removes it once `structured-data` is off; its chunk loads only when asked for. */
  writeStructuredData(): void {
    if (!this.opts.structuredData()) return this.jsonLd?.remove();
    import('./structured-data.ts').then(
      ({ writeJsonLd }) => {
        // What the chunk writes is what the element holds when it arrives: a later update's listings, never older ones.
        const data = this.opts.structuredData();
        if (data) this.jsonLd = writeJsonLd(this.host, this.jsonLd, data.facility, data.listings);
      },
      () => undefined, // unreachable chunk: the next update tries again
    );
  }
}
