// Conditional requests: whether an If-None-Match names the answer's ETag.

/** If-None-Match uses the weak comparison (RFC 9110 13.1.2): W/ prefixes are ignored; `*` matches. */
export function etagMatches(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === etag) return true;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
