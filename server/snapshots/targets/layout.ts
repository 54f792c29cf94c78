// The published layout (contract, "Signed snapshots"): object keys, content types and cache lifetimes in one place.
import type { ObjectMeta } from './target.ts';

const JSON_TYPE = 'application/json';

/** Never rewritten: a version's files, and a kid's PEM (the kid is a digest of the key). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The small mutable pointer a CDN may serve a minute stale, longer while the origin fails. */
export const POINTER = 'public, max-age=60, stale-while-revalidate=300, stale-if-error=86400';
/** keys.json changes on a key rotation; five minutes keeps the new kid's arrival quick. */
export const KEYS = 'public, max-age=300';

export const pointerKey = (facility: string) => `${facility}/listings.json`;
export const versionKey = (facility: string, version: number) => `${facility}/v${version}/listings.json`;
export const signatureKey = (listingsKey: string) => `${listingsKey}.sig`;
export const KEYS_KEY = 'keys.json';
export const pemKey = (kid: string) => `keys/${kid}.pem`;
/** The aggregators' index of every listed facility, and the change feed: full pages by number, the open tail as latest. */
export const INDEX_KEY = 'index.json';
export const LATEST_KEY = 'changes/latest.json';
export const pageKey = (page: number) => `changes/${page}.json`;

export const pointerMeta: ObjectMeta = { contentType: JSON_TYPE, cacheControl: POINTER };
export const versionMeta: ObjectMeta = { contentType: JSON_TYPE, cacheControl: IMMUTABLE };
export const keysMeta: ObjectMeta = { contentType: 'application/jwk-set+json', cacheControl: KEYS };
export const pemMeta: ObjectMeta = { contentType: 'application/x-pem-file', cacheControl: IMMUTABLE };
