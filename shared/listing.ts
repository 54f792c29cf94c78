// The public JSON contract: the shapes every answer (API, snapshot, widget) speaks, and the source of the OpenAPI document.
import { z } from 'zod';
import { IsoDuration as isoDuration, Price } from './money.ts';
import {
  Door,
  FacilityInfo,
  Feature,
  Fee,
  MoveIn,
  Promotion,
  Protection,
  ScheduleRun,
  UnitType,
} from './rental-data.ts';

export * from './money.ts';
export * from './rental-data.ts';

export const CoverPhoto = z.object({ url: z.string(), caption: z.string() }).meta({ id: 'CoverPhoto' });
export type CoverPhoto = z.infer<typeof CoverPhoto>;

export const Photo = z
  .object({
    url: z.string(),
    caption: z.string(),
    width: z.int().positive().nullable().describe('Pixel width, when the operator supplied it.'),
    height: z.int().positive().nullable().describe('Pixel height, when the operator supplied it.'),
  })
  .meta({ id: 'Photo' });
export type Photo = z.infer<typeof Photo>;

export const Dimensions = z
  .object({
    width_m: z.number().positive(),
    depth_m: z.number().positive(),
    height_m: z.number().positive().nullable(),
  })
  .meta({ id: 'Dimensions' });
export type Dimensions = z.infer<typeof Dimensions>;

export const Summary = z
  .object({
    id: z
      .string()
      .regex(/^lst_[0-9a-f]{20}$/)
      .describe('Stable listing id (same facility and code give the same id).'),
    code: z.string(),
    title: z.string(),
    area_m2: z.number().positive(),
    price: Price,
    dynamic_pricing: z.boolean().describe('Whether the price comes from dynamic (occupancy-based) pricing.'),
    free_units: z.int().min(0),
    rent_url: z.string().describe("The operator's rental page for this listing: where a rent button links."),
    cover_photo: CoverPhoto.nullable().describe('The first photo, or null when the listing has none.'),
    unit_type: UnitType.nullable().describe('The kind of unit, or null when the operator did not say.'),
    features: z.array(Feature).describe("The unit's features; [] when none are given."),
    promotions: z
      .array(Promotion)
      .describe(
        "The promotions active now, in the operator's order ([] when none). `price` stays the regular price; a " +
          "promotion's `price` is one period's price under it alone.",
      ),
    schedule: z
      .array(ScheduleRun)
      .describe(
        'What a new tenant pays per billing period: runs up to the last promoted period, then the regular price.',
      ),
    move_in: MoveIn,
  })
  .meta({ id: 'Summary' });
export type Summary = z.infer<typeof Summary>;

export const Detail = Summary.extend({
  dimensions: Dimensions,
  description: z.string(),
  min_rental_period: isoDuration,
  notice_period: isoDuration,
  deposit: z.object({ amount: z.int().min(0), currency: z.string().regex(/^[A-Z]{3}$/) }),
  photos: z.array(Photo),
  floor: z.int().nullable().describe('0 = ground floor, negative below it; null when not given.'),
  door: Door.nullable(),
  fees: z.array(Fee).describe("The facility's fees ([] when none), as on the list's facility object."),
  protection: Protection.nullable().describe("The facility's protection plans, or null when not given."),
}).meta({ id: 'Detail' });
export type Detail = z.infer<typeof Detail>;

export const FacilityRef = z.object({ id: z.string(), name: z.string() }).meta({ id: 'FacilityRef' });
export type FacilityRef = z.infer<typeof FacilityRef>;

export const ListResponse = z
  .object({ facility: FacilityInfo, listings: z.array(Summary) })
  .meta({ id: 'ListResponse' });
export type ListResponse = z.infer<typeof ListResponse>;

export const ProblemCode = z.enum([
  'missing_api_key',
  'invalid_api_key',
  'revoked_api_key',
  'origin_not_allowed',
  'not_found',
  'method_not_allowed',
  'invalid_parameter',
  'uri_too_long',
  'bad_request',
  'request_timeout',
  'headers_too_large',
  'rate_limited',
  'internal_error',
  'database_unavailable',
]);
export type ProblemCode = z.infer<typeof ProblemCode>;

export const Problem = z
  .object({
    type: z.string().describe('A URI that identifies the problem type.'),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string(),
    code: ProblemCode,
  })
  .meta({ id: 'Problem' });
export type Problem = z.infer<typeof Problem>;

/** A signed static snapshot of one facility (`OUT/<facility>/listings.json`). */
export const Snapshot = z
  .object({
    facility: FacilityInfo,
    listings: z
      .array(Detail)
      .describe(
        'Each listing with every promotion active at any time before expires_at, with its times: a reader decides ' +
          'which are active when it shows them (schedule and move_in are as of generated_at).',
      ),
    version: z.int().positive(),
    generated_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
    kid: z.string(),
  })
  .meta({ id: 'Snapshot' });
export type Snapshot = z.infer<typeof Snapshot>;

/** The detached signature beside a snapshot (`listings.json.sig`). */
export const SnapshotSignature = z.object({
  alg: z.literal('EdDSA'),
  kid: z.string(),
  sig: z.string().regex(/^[A-Za-z0-9_-]+$/),
});
export type SnapshotSignature = z.infer<typeof SnapshotSignature>;

export const Jwk = z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string(), kid: z.string() });
export type Jwk = z.infer<typeof Jwk>;
export const Jwks = z.object({ keys: z.array(Jwk) });
export type Jwks = z.infer<typeof Jwks>;
