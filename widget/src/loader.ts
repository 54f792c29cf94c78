// Loading and refreshing for <storage-listings>: one fetch at a time, the skeleton only for a new source, refreshes that
// wait while the tab is hidden, and failures kept as a state (and an event) with Retry-After respected.
import type { ReactiveController, ReactiveElement } from 'lit';
import type { Detail, Summary } from '../../shared/listing.ts';
import { loadListings, type Source } from './data.ts';
import { asWidgetError, WidgetError } from './errors.ts';
import type { Facility } from './listing.ts';

export type Phase = 'loading' | 'ready' | 'error';

/** Re-fetching more often than this would only burn the partner's rate limit. */
const MIN_REFRESH_SECONDS = 1;
/** setTimeout's longest delay (about 24.8 days): a later expiry is waited for in steps. */
const LONGEST_DELAY = 2 ** 31 - 1;

/** What the loader needs from the element. */
export interface LoaderOptions {
  /** The data source the attributes name; throws a WidgetError when they name none. */
  source: () => Source;
  /** Seconds between refreshes (the `refresh` attribute). */
  refresh: () => number | undefined;
  /** Other listings are in `all`: on the first load, and on a refresh that changed them. */
  loaded: () => void;
  failed: (error: WidgetError) => void;
}

export class Loader implements ReactiveController {
  phase: Phase = 'loading';
  failure: WidgetError | null = null;
  /** True while a Retry-After period runs: retrying earlier would only be refused again. */
  waiting = false;
  /** Every listing of the source, in its order. */
  all: Summary[] = [];
  /** The facility, when the source names it: its name, and its address, hours and amenities where given. */
  facility: Facility | undefined;
  /** The live key's partner reference, from its answers. */
  ref: string | undefined;
  /** What an empty list says: no units, or (a withdrawn facility's tombstone) no longer listed. */
  emptyState: 'empty' | 'withdrawn' = 'empty';
  /** Details at hand by listing id: every one from a snapshot; from the API, those opened so far. */
  details = new Map<string, Detail>();

  private version: string | undefined;
  private loads = 0;
  private loading: AbortController | undefined;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** A verified snapshot's expiry: a page left open past it shows the expired state, as a load after it would. */
  private expiresAt: number | undefined;
  private expiryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private retryAt = 0;

  constructor(
    private readonly host: ReactiveElement,
    private readonly opts: LoaderOptions,
  ) {
    host.addController(this);
  }

  hostConnected(): void {
    // Moved in the page (or re-attached): listings on screen just resume refreshing; anything else loads again.
    if (this.host.hasUpdated) {
      if (this.phase === 'ready') this.schedule();
      else void this.load(true);
    }
  }

  hostDisconnected(): void {
    this.loading?.abort();
    clearTimeout(this.refreshTimer);
    clearTimeout(this.retryTimer);
    clearTimeout(this.expiryTimer);
    document.removeEventListener('visibilitychange', this.tick);
  }

  /** Fetches the listings; `fresh` (new source, retry) shows the skeleton, a refresh updates in place. */
  async load(fresh: boolean): Promise<void> {
    const run = ++this.loads;
    this.loading?.abort();
    const controller = (this.loading = new AbortController());
    clearTimeout(this.refreshTimer);
    clearTimeout(this.expiryTimer);
    if (fresh) {
      this.phase = 'loading';
      this.version = undefined;
      this.host.requestUpdate();
    }
    try {
      // Async even when the configuration is wrong, so no event ever fires in the middle of an update.
      const loaded = await Promise.resolve().then(() => loadListings(this.opts.source(), controller.signal));
      if (run !== this.loads) return;
      if (loaded.version !== this.version || this.phase !== 'ready') {
        this.version = loaded.version;
        this.all = loaded.listings;
        this.facility = loaded.facility;
        this.ref = loaded.ref;
        this.emptyState = loaded.empty ?? 'empty';
        this.expiresAt = loaded.expiresAt;
        this.details = new Map(loaded.complete ? loaded.listings.map((l) => [l.id, l as Detail]) : []);
        this.failure = null;
        this.phase = 'ready';
        this.host.requestUpdate();
        this.opts.loaded();
      }
    } catch (error) {
      if (run === this.loads) this.fail(asWidgetError(error));
    } finally {
      if (run === this.loads) this.schedule();
    }
  }

  /**
   * Sets the next refresh (none when `refresh` is off, or after a failure that refreshing cannot mend), and the expiry
   * of a verified snapshot on screen.
   */
  schedule(): void {
    clearTimeout(this.refreshTimer);
    clearTimeout(this.expiryTimer);
    const expiresAt = this.expiresAt;
    if (expiresAt !== undefined && this.phase === 'ready' && this.host.isConnected) {
      this.expiryTimer = setTimeout(
        () => {
          if (Date.now() >= expiresAt) this.fail(new WidgetError(0, 'snapshot_expired'));
          this.schedule(); // a step of a longer wait, or the refresh that looks for a fresh file (as after a load)
        },
        Math.min(expiresAt - Date.now(), LONGEST_DELAY),
      );
    }
    const seconds = Number(this.opts.refresh());
    const failure = this.phase === 'error' ? this.failure : null;
    // An expired snapshot mends itself when the publisher exports again: refreshing finds the fresh file.
    const mendable = !failure || failure.transient || failure.code === 'snapshot_expired';
    if (!(seconds > 0) || !this.host.isConnected || !mendable) return;
    const delay = Math.max(seconds, MIN_REFRESH_SECONDS) * 1000;
    this.refreshTimer = setTimeout(this.tick, Math.max(delay, this.retryAt - Date.now()));
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
    if (this.waiting) {
      this.retryTimer = setTimeout(() => {
        this.waiting = false;
        this.host.requestUpdate();
      }, error.retryAfter * 1000);
    }
    this.host.requestUpdate();
    this.opts.failed(error);
  }

  /** A refresh is due: do it now, or when the visitor comes back to a hidden tab. */
  private tick = (): void => {
    if (document.visibilityState === 'hidden') {
      document.addEventListener('visibilitychange', this.tick, { once: true });
    } else {
      void this.load(false);
    }
  };
}
