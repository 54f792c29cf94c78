// A snapshot's promotions priced when the widget renders (a snapshot carries every promotion with its times, so one read
// a week after publishing shows that week's), with the shared pricing module, and priced again when one starts or ends.
import type { ReactiveController, ReactiveElement } from 'lit';
import { nextPromotionChange } from '../../shared/promotions.ts';
import { rentalTermsOf } from '../../shared/rental-terms.ts';
import { arrayOf, pricedPlan, type Facility, type ListingDetail, type Terms } from './listing.ts';

/** setTimeout's longest delay (about 24.8 days): a later change is waited for in steps. */
const LONGEST_DELAY = 2 ** 31 - 1;

/** A snapshot listing's terms at `now`: its own fees and protection, else the facility's. */
export function termsAt(listing: ListingDetail, facility: Facility | undefined, now: number): Terms {
  const protection = listing.protection ?? facility?.protection;
  return rentalTermsOf(
    {
      price: listing.price,
      deposit: listing.deposit.amount,
      promotions: arrayOf(listing.promotions),
      fees: arrayOf(listing.fees ?? facility?.fees).map((f) => ({
        ...f,
        amount_gross: f.amount.gross,
        vat_rate: f.amount.vat_rate,
      })),
      protection: protection
        ? { required: protection.required, plans: arrayOf(protection.plans).map(pricedPlan) }
        : null,
    },
    now,
  );
}

export class SnapshotTerms implements ReactiveController {
  private byId = new Map<string, Terms>();
  private listings: readonly ListingDetail[] = [];
  private facility: Facility | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly host: ReactiveElement) {
    host.addController(this);
  }

  /**
   * Prices a snapshot's listings now (none: the source is live), and again, re-rendering the element, at the next
   * instant any of their promotions starts or ends.
   */
  price(listings = this.listings, facility = this.facility): void {
    clearTimeout(this.timer);
    this.listings = listings;
    this.facility = facility;
    const now = Date.now();
    this.byId = new Map(listings.map((l) => [l.id, termsAt(l, facility, now)]));
    const next = nextPromotionChange(
      listings.flatMap((l) => arrayOf(l.promotions)),
      now,
    );
    if (next !== null && this.host.isConnected) {
      this.timer = setTimeout(() => (this.price(), this.host.requestUpdate()), Math.min(next - now, LONGEST_DELAY));
    }
  }

  of(id: string): Terms | undefined {
    return this.byId.get(id);
  }

  hostConnected(): void {
    this.price(); // back in the page after a while: what is active may have changed meanwhile
  }

  hostDisconnected(): void {
    clearTimeout(this.timer);
  }
}
