// The OpenAPI 3.1 document, generated from the same zod schemas that shape the answers, with examples built by the real view functions.
import { z } from 'zod';
import * as schemas from '../schemas/listing.ts';
import { detailOf, listResponseOf } from '../domain/views.ts';
import type { FacilityData } from '../store/facilities.ts';
import { listingIdOf } from '../store/facilities.ts';
import { problemBody } from './answer.ts';
import { SORTS } from './query.ts';

const COMPONENTS = ['Price', 'CoverPhoto', 'Photo', 'Dimensions', 'Summary', 'Detail', 'FacilityRef', 'ListResponse', 'Problem'];

/** A sample facility run through the real domain functions, so examples cannot drift from answers. */
function exampleData(): FacilityData {
  const base = {
    facility_id: 'wro-1', active: 1, width_m: 2.5, depth_m: 3, height_m: 2.4, price_period: 'P1M', vat_rate: 23,
    min_rental_period: 'P1M', notice_period: 'P14D',
  };
  return {
    facility: { id: 'wro-1', name: 'SafeBox Wroclaw Centrum', currency: 'PLN', rental_page_url: 'https://rent.example.com/{facility}/{code}', imported_at: '2026-01-01T00:00:00.000Z' },
    pricing_rules: [{ min_occupancy: 0.8, adjust_pct: 10 }],
    listings: [
      {
        ...base, id: listingIdOf('wro-1', 'M-07'), code: 'M-07', position: 0, title: 'Medium unit, ground floor', area_m2: 7.5,
        description: 'Drive-up access.', price_gross: 29900, dynamic_pricing: 1, total_units: 10, free_units: 1, deposit: 29900,
        photos: [{ listing_id: '', position: 0, url: 'https://img.example.com/m07-front.jpg', caption: 'Front', width: 1200, height: 800 }],
      },
      {
        ...base, id: listingIdOf('wro-1', 'S-02'), code: 'S-02', position: 1, title: 'Small locker', area_m2: 2, width_m: 1, depth_m: 2,
        height_m: null, description: 'Indoor, climate controlled.', price_gross: 9900, dynamic_pricing: 0, total_units: 20, free_units: 0,
        deposit: 9900, photos: [],
      },
    ],
  };
}

const problemResponse = (description: string, codes: schemas.ProblemCode[], extraHeaders: Record<string, unknown> = {}) => ({
  description,
  headers: { ...commonHeaders, ...extraHeaders },
  content: {
    'application/problem+json': {
      schema: { $ref: '#/components/schemas/Problem' },
      examples: Object.fromEntries(codes.map((c) => [c, { value: JSON.parse(problemBody(c, exampleDetail[c] ?? c)) }])),
    },
  },
});

const exampleDetail: Partial<Record<schemas.ProblemCode, string>> = {
  missing_api_key: 'Send your API key in the X-API-Key header.',
  invalid_api_key: 'The X-API-Key header does not hold a valid API key.',
  revoked_api_key: 'This API key has been revoked; ask the operator for a new one.',
  not_found: 'No listing with this id is available to this key.',
  invalid_parameter: 'sort: must be one of price, -price, area, -area, code',
  origin_not_allowed: 'This API key may not be used from this website.',
  rate_limited: 'Too many requests for this key; retry in 1 s.',
  method_not_allowed: 'POST is not allowed here; the API is read-only.',
  internal_error: 'Something went wrong on our side. Request id: 4b7c...',
};

const str = { schema: { type: 'string' } };
const commonHeaders = {
  'X-Request-Id': { description: 'Unique id of this request; quote it when reporting a problem.', ...str },
  'Access-Control-Allow-Origin': { description: '`*`, or the request origin for an origin-restricted key.', ...str },
};
const keyedHeaders = {
  ...commonHeaders,
  RateLimit: { description: 'Remaining quota (draft-ietf-httpapi-ratelimit-headers), e.g. `"key";r=99;t=1`.', ...str },
  'RateLimit-Policy': { description: 'The quota policy, e.g. `"key";q=100;w=1`.', ...str },
};
const okHeaders = {
  ...keyedHeaders,
  ETag: { description: 'Strong entity tag; send it back in If-None-Match to get 304 when nothing changed.', ...str },
  'Cache-Control': { description: 'Always `private, no-cache`: revalidate every time.', ...str },
};

export function openApiDocument(publicUrl: string) {
  const all = z.toJSONSchema(z.globalRegistry, { target: 'draft-2020-12', uri: (id) => `#/components/schemas/${id}` }).schemas;
  const components = Object.fromEntries(
    COMPONENTS.map((name) => {
      const { $schema: _s, $id: _i, ...schema } = all[name] as Record<string, unknown>;
      return [name, schema];
    }),
  );
  const data = exampleData();
  const list = listResponseOf(data, publicUrl);
  const detail = detailOf(data.listings[0]!, data, publicUrl);
  const errors = {
    '401': problemResponse('Missing, malformed, unknown or revoked key.', ['missing_api_key', 'invalid_api_key', 'revoked_api_key'], {
      'WWW-Authenticate': { description: '`ApiKey header="X-API-Key"`', ...str },
    }),
    '403': problemResponse('The key is restricted to other browser origins.', ['origin_not_allowed']),
    '405': problemResponse('Any method but GET, HEAD and OPTIONS.', ['method_not_allowed'], { Allow: { description: '`GET, HEAD, OPTIONS`', ...str } }),
    '429': problemResponse('Too many requests for this key, or too many failed authentications from this address.', ['rate_limited'], {
      'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
    }),
    '500': problemResponse('Unexpected failure; the body never carries internals.', ['internal_error']),
  };
  const notModified = { description: 'Not modified: the If-None-Match tag still matches.', headers: okHeaders };
  const ifNoneMatch = { name: 'If-None-Match', in: 'header', required: false, schema: { type: 'string' }, description: 'An ETag from an earlier answer.' };
  const curl = (path: string) => [{ lang: 'Shell', label: 'curl', source: `curl -H "X-API-Key: $LISTINGS_KEY" ${publicUrl}${path}` }];
  return {
    openapi: '3.1.0',
    info: {
      title: 'External Listings API',
      version: '1.0.0',
      description:
        "Read-only listings of one self-storage facility per API key: live prices (dynamic pricing included), free units and photos, exactly as the operator's rental page shows them. " +
        'Money is in minor units with an ISO 4217 currency; periods are ISO 8601 durations; area in m², dimensions in metres. ' +
        'Booking happens on the rental page each listing links to (`rent_url`). Every answer carries CORS headers and `X-Request-Id`; errors are RFC 9457 problem+json.',
    },
    servers: [{ url: publicUrl }],
    security: [{ ApiKey: [] }],
    paths: {
      '/external/listings': {
        get: {
          operationId: 'listListings',
          summary: "List the key's facility's active listings",
          description: 'In import order unless `sort` is given. `HEAD` answers the same headers without a body. Unknown query parameters are ignored.',
          parameters: [
            { name: 'available', in: 'query', required: false, schema: { type: 'string', enum: ['true', 'false'] }, description: '`true`: only listings with free units.' },
            { name: 'min_area', in: 'query', required: false, schema: { type: 'number', minimum: 0 }, description: 'Smallest area_m2.' },
            { name: 'max_area', in: 'query', required: false, schema: { type: 'number', minimum: 0 }, description: 'Largest area_m2.' },
            { name: 'sort', in: 'query', required: false, schema: { type: 'string', enum: [...SORTS] }, description: 'Order by gross price, area or code; `-` for descending.' },
            ifNoneMatch,
          ],
          'x-codeSamples': curl('/external/listings?available=true&sort=price'),
          responses: {
            '200': {
              description: 'The facility and its listings.',
              headers: okHeaders,
              content: { 'application/json': { schema: { $ref: '#/components/schemas/ListResponse' }, example: list } },
            },
            '304': notModified,
            '400': problemResponse('A known query parameter has a malformed value.', ['invalid_parameter']),
            ...errors,
          },
        },
      },
      '/external/listings/{id}': {
        get: {
          operationId: 'getListing',
          summary: 'Get one listing in detail',
          description: 'Every Summary field plus dimensions, description, periods, deposit and all photos. A listing of another facility, an inactive one and an unknown or malformed id all give the same 404.',
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^lst_[0-9a-f]{20}$' }, example: detail.id, description: 'Listing id from the list.' },
            ifNoneMatch,
          ],
          'x-codeSamples': curl(`/external/listings/${detail.id}`),
          responses: {
            '200': { description: 'The listing.', headers: okHeaders, content: { 'application/json': { schema: { $ref: '#/components/schemas/Detail' }, example: detail } } },
            '304': notModified,
            '404': problemResponse('No such listing for this key.', ['not_found']),
            ...errors,
          },
        },
      },
    },
    components: {
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A key of the form `svc_live_` + 32 letters and digits, issued by the operator for one facility.' },
      },
      schemas: components,
    },
  };
}
