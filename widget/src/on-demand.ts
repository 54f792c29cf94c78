// The parts a visitor may never use (the details dialog, the facility header, the JSON-LD), loaded as chunks on first
// need: a dynamic import() resolves against the module's own URL, so they come from where the widget came from.
import type { nothing, ReactiveController, ReactiveElement, TemplateResult } from 'lit';
import type { Summary } from '../../shared/listing.ts';
import type { View } from './cards.ts';
import type { DetailsDialog, DialogOptions } from './details-dialog.ts';
import { WidgetError } from './errors.ts';
import type * as FacilityHeader from './facility-header.ts';
import type { Facility } from './listing.ts';

export interface OnDemandOptions extends DialogOptions {
  /** What the JSON-LD holds now; undefined while `structured-data` is off or no listings are shown. */
  structuredData: () => { facility: Facility; listings: readonly Summary[]; base: string } | undefined;
}

export class OnDemand implements ReactiveController {
  private dialog: DetailsDialog | undefined;
  private header: typeof FacilityHeader | undefined;
  private headerLoading = false;
  /** Renders the header again when its "open now" changes: an unchanged refresh renders nothing. */
  private hoursTimer: ReturnType<typeof setTimeout> | undefined;
  private jsonLd: HTMLScriptElement | undefined;

  constructor(
    private readonly host: ReactiveElement,
    private readonly opts: OnDemandOptions,
  ) {
    host.addController(this);
  }

  /**
   * The facility header at `now`, rendered again when its hours next open or close; undefined while its chunk loads
   * (the host renders again once it has come).
   */
  facilityHeader(facility: Facility | undefined, v: View, now: number): TemplateResult | typeof nothing | undefined {
    if (!this.header && !this.headerLoading) {
      this.headerLoading = true;
      import('./facility-header.ts').then(
        (m) => ((this.header = m), this.host.requestUpdate()),
        () => (this.headerLoading = false), // unreachable chunk: the next render tries again
      );
    }
    if (!this.header) return undefined;
    clearTimeout(this.hoursTimer);
    const at = this.header.headerChangesAt(facility, now);
    if (at !== undefined && this.host.isConnected)
      this.hoursTimer = setTimeout(() => this.host.requestUpdate(), Math.max(at - now, 0));
    return this.header.facilityHeader(facility, v, now);
  }

  hostConnected(): void {
    if (this.header) this.host.requestUpdate(); // back in the page after a while: it may have opened or closed
  }

  hostDisconnected(): void {
    clearTimeout(this.hoursTimer);
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

  /**
   * Writes the JSON-LD script, or removes it once `structured-data` is off or the listings are not shown; its chunk
   * loads only when asked for.
   */
  writeStructuredData(): void {
    if (!this.opts.structuredData()) return this.jsonLd?.remove();
    import('./structured-data.ts').then(
      ({ writeJsonLd }) => {
        // What the chunk writes is what the element holds when it arrives: a later update's listings, never older ones.
        const data = this.opts.structuredData();
        if (data) this.jsonLd = writeJsonLd(this.host, this.jsonLd, data.facility, data.listings, data.base);
      },
      () => undefined, // unreachable chunk: the next update tries again
    );
  }
}
