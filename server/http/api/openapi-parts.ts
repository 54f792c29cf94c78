// The parts the OpenAPI document is assembled from: example data run through the real domain functions, problem
// responses worded by the functions that word the real ones, the headers, and the query parameters from their schema.
import { z } from 'zod';
import { listingIdOf, type FacilityData } from '../../domain/facility.ts';
import { DETAILS, MAX_URL_LENGTH, problemBody, STATUS_OF } from '../transport/answer.ts';
import { LIST_QUERY_PARAMETERS, ListQuery, parseListQuery } from '../views/query.ts';

/** A sample facility run through the real domain functions, so examples cannot drift from answers. */
export function exampleData(): FacilityData {
  const base = {
    width_m: 2.5,
    depth_m: 3,
    height_m: 2.4,
    price_period: 'P1M',
    vat_rate: 23,
    min_rental_period: 'P1M',
    notice_period: 'P14D',
    floor: 0,
  };
  const weekday = ['09:00-18:00'];
  return {
    facility: {
      id: 'wro-1',
      name: 'SafeBox Wroclaw Centrum',
      currency: 'PLN',
      rental_page_url: 'https://rent.example.com/{facility}/{code}',
      booking_url: null,
      contact_email: 'rent@safebox.example.com',
      contact_phone: '+48 71 555 01 07',
      address: { street: 'ul. Legnicka 12', postal_code: '53-674', city: 'Wrocław', region: null, country: 'PL' },
      geo: { lat: 51.1129, lng: 17.0112 },
      timezone: 'Europe/Warsaw',
      office_hours: { mo: weekday, tu: weekday, we: weekday, th: weekday, fr: weekday, sa: ['10:00-14:00'], su: [] },
      access_hours: null,
      amenities: ['cctv', 'gated', 'loading_bay', 'trolleys'],
      fees: [{ code: 'admin', title: 'Admin fee', amount_gross: 4900, vat_rate: 23, when: 'move_in' }],
      protection: {
        required: true,
        plans: [{ code: 'basic', title: 'Basic cover', cover: 500000, price_gross: 1500, vat_rate: 23, period: 'P1M' }],
      },
    },
    pricing_rules: [{ min_occupancy: 0.8, adjust_pct: 10 }],
    listings: [
      {
        ...base,
        id: listingIdOf('wro-1', 'M-07'),
        code: 'M-07',
        title: 'Medium unit, ground floor',
        area_m2: 7.5,
        description: 'Drive-up access.',
        price_gross: 29900,
        dynamic_pricing: true,
        total_units: 10,
        free_units: 1,
        deposit: 29900,
        photos: [{ url: 'https://img.example.com/m07-front.jpg', caption: 'Front', width: 1200, height: 800 }],
        unit_type: 'medium',
        features: ['drive_up', 'ground_floor'],
        door: { width_m: 2, height_m: 2.2 },
        promotions: [
          {
            code: 'FIRST50',
            title: '50% off your first month',
            terms: 'New customers, minimum stay 3 months.',
            kind: 'percent',
            value: 50,
            from_period: 1,
            to_period: 1,
            // Unbounded, so the example is the same whenever the document is made.
            starts_at: null,
            ends_at: null,
            new_tenants_only: true,
          },
        ],
      },
      {
        ...base,
        id: listingIdOf('wro-1', 'S-02'),
        code: 'S-02',
        title: 'Small locker',
        area_m2: 2,
        width_m: 1,
        depth_m: 2,
        height_m: null,
        description: 'Indoor, climate controlled.',
        price_gross: 9900,
        dynamic_pricing: false,
        total_units: 20,
        free_units: 0,
        deposit: 9900,
        photos: [],
        unit_type: 'locker',
        features: ['indoor', 'climate_controlled'],
        floor: 1,
        door: null,
        promotions: [],
      },
    ],
  };
}

/** The detail the query parser gives for a malformed query. */
function parserDetail(search: string): string {
  const detail = parseListQuery(search);
  if (typeof detail === 'string') return detail;
  throw new Error(`${search} is a valid query: no example of invalid_parameter`);
}

/** Example details of the problems the API answers, worded by the functions that word the real ones. */
const exampleDetail = {
  missing_api_key: DETAILS.missing_api_key(),
  invalid_api_key: DETAILS.invalid_api_key(),
  revoked_api_key: DETAILS.revoked_api_key(),
  origin_not_allowed: DETAILS.origin_not_allowed(),
  not_found: DETAILS.not_found(),
  method_not_allowed: DETAILS.method_not_allowed('POST'),
  invalid_parameter: parserDetail('?sort=nope'),
  rate_limited: DETAILS.rate_limited(1),
  internal_error: DETAILS.internal_error('4b7c...'),
  database_unavailable: DETAILS.database_unavailable(5),
  uri_too_long: DETAILS.uri_too_long(MAX_URL_LENGTH),
};
type DocumentedCode = keyof typeof exampleDetail;

/** The response of one status, keyed by the status the server gives these codes (they must share one). */
export function problemResponse(
  description: string,
  codes: DocumentedCode[],
  extraHeaders: Record<string, unknown> = {},
) {
  const status = STATUS_OF[codes[0]!];
  if (codes.some((c) => STATUS_OF[c] !== status)) throw new Error(`${codes.join(', ')} do not share one status`);
  return {
    [status]: {
      description,
      headers: { ...commonHeaders, ...extraHeaders },
      content: {
        'application/problem+json': {
          schema: { $ref: '#/components/schemas/Problem' },
          examples: Object.fromEntries(codes.map((c) => [c, { value: JSON.parse(problemBody(c, exampleDetail[c])) }])),
        },
      },
    },
  };
}

/** The same responses without their bodies, as HEAD answers them. */
export function withoutBody(responses: Record<string, { description: string; headers: unknown }>) {
  return Object.fromEntries(
    Object.entries(responses).map(([status, r]) => [status, { description: r.description, headers: r.headers }]),
  );
}

/** A JSON Schema of a zod schema, as a parameter carries it: no $schema, the description beside it. */
function parameterSchema(schema: z.ZodType) {
  const { $schema: _s, description, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' });
  return { schema: rest, description, required: !schema.safeParse(undefined).success };
}

/** The list's query parameters, written by the schema that parses them. */
export const queryParameters = () =>
  LIST_QUERY_PARAMETERS.map((name) => {
    const { schema, description, required } = parameterSchema(ListQuery.shape[name]);
    return { name, in: 'query', required, schema, description };
  });

export const str = { schema: { type: 'string' } };
export const commonHeaders = {
  'X-Request-Id': { description: 'Unique id of this request; quote it when reporting a problem.', ...str },
  'Access-Control-Allow-Origin': { description: '`*`, or the request origin for an origin-restricted key.', ...str },
};
const keyedHeaders = {
  ...commonHeaders,
  RateLimit: { description: 'Remaining quota (draft-ietf-httpapi-ratelimit-headers), e.g. `"key";r=99;t=1`.', ...str },
  'RateLimit-Policy': { description: 'The quota policy, e.g. `"key";q=100;w=1`.', ...str },
  'X-Partner-Ref': {
    description:
      "The key's partner reference: rent links through `/go/{facility}/{code}?ref=` with it credit the partner's clicks.",
    ...str,
  },
};
export const okHeaders = {
  ...keyedHeaders,
  ETag: { description: 'Strong entity tag; send it back in If-None-Match to get 304 when nothing changed.', ...str },
  'Cache-Control': { description: 'Always `private, no-cache`: revalidate every time.', ...str },
};
