// The bytes of a webhook: the queued event with its listing's rent_url completed by the public URL partners reach.
export function bodyOf(event: string, publicUrl: string): string {
  const parsed = JSON.parse(event) as { data?: { listing?: { rent_url?: string } } };
  const listing = parsed.data?.listing;
  if (listing?.rent_url?.startsWith('/')) listing.rent_url = publicUrl.replace(/\/+$/, '') + listing.rent_url;
  return JSON.stringify(parsed);
}
