// Photo and rent URLs come from operator data: only http(s) URLs may become an img src or a link href.

/** The absolute URL when `raw` is an http: or https: URL (relative ones resolve against `base`), else null. */
export function safeUrl(raw: unknown, base: string): string | null {
  if (typeof raw !== 'string' || raw === '') return null;
  try {
    const url = new URL(raw, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
