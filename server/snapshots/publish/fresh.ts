// When a signed file is due to be signed again: half its TTL after it was made, so a copy on a CDN never nears expiry.

/** The instant (ms) half of a file's validity has passed. */
export function resignAt(generatedAt: string, expiresAt: string): number {
  const generated = Date.parse(generatedAt);
  return generated + (Date.parse(expiresAt) - generated) / 2;
}
