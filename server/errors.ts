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

/** How many of an error's details (an import file's problems) a person is shown, in the CLI and the panel alike. */
export const MAX_LISTED_DETAILS = 20;

/** The details shown: the first MAX_LISTED_DETAILS, and `... and N more` when there are more, else undefined. */
export function listedDetails(details: readonly string[]): { listed: readonly string[]; more: string | undefined } {
  const listed = details.slice(0, MAX_LISTED_DETAILS);
  const rest = details.length - listed.length;
  return { listed, more: rest > 0 ? `... and ${rest} more` : undefined };
}
