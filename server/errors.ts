// The one error class for expected failures: a machine-readable code and a message that says what failed and where.
export class ListingsError extends Error {
  override name = 'ListingsError';
  constructor(
    readonly code: string,
    message: string,
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}
