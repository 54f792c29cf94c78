// The one error type of the widget: what failed (an HTTP status or 0), a stable code, and how long to wait.

/** A failure that becomes a visible state and a `storage-listings-error` event, never an exception in the page. */
export class WidgetError extends Error {
  constructor(
    /** HTTP status of the failing answer, or 0 when there was none (network, verification, configuration). */
    readonly status: number,
    /** The API's problem `code`, or the widget's own (`network_error`, `signature_invalid`, ...). */
    readonly code: string,
    /** Seconds to wait before trying again (from `Retry-After`), 0 when unknown. */
    readonly retryAfter = 0,
    /** The attribute to blame: its value cannot be used (`invalid_config`), or the file it names was refused (a 4xx). */
    readonly attribute?: string,
  ) {
    super(`storage-listings: ${code}${status ? ` (HTTP ${status})` : ''}`);
    this.name = 'WidgetError';
  }

  /** Transient failures keep already shown listings on screen; the others replace them. */
  get transient(): boolean {
    return this.status === 0 ? this.code === 'network_error' : this.status === 429 || this.status >= 500;
  }
}

/** Turns anything caught into a WidgetError, so callers handle one shape. */
export function asWidgetError(error: unknown): WidgetError {
  return error instanceof WidgetError ? error : new WidgetError(0, 'invalid_response');
}
