// The OpenAPI 3.1 document: its components generated from the zod schemas that shape the answers, its paths, and the
// parts they share (example data run through the real view functions, problem responses worded as the API words them,
// headers, the query parameters from the schema that parses them).
import { z } from 'zod';
// Registers the contract's schemas in zod's global registry, which the document's components are made from.
import '../../../shared/listing.ts';
import { listingIdOf, type FacilityData } from '../../domain/facility.ts';
import { DEFAULT_KEY_LIMIT } from '../../domain/keys.ts';
import { detailOf, listResponseOf } from '../../domain/views.ts';
import { ALLOWED_METHODS, DETAILS, MAX_URL_LENGTH, problemBody, STATUS_OF } from '../transport/answer.ts';
import { CORS_HEADERS } from '../transport/cors.ts';
import { LIST_QUERY_PARAMETERS, ListQuery, parseListQuery } from '../views/query.ts';
import { API_PREFIX, KEY_POLICY_NAME, LISTINGS_PER_TOKEN } from './api.ts';
import { WWW_AUTHENTICATE } from './auth.ts';
import { RateLimiter } from './rate-limit.ts';

const COMPONENTS = [
  'Price',
  'CoverPhoto',
  'Photo',
  'Dimensions',
  'UnitType',
  'Feature',
  'Door',
  'Promotion',
  'ScheduleRun',
  'MoveInPart',
  'MoveIn',
  'Summary',
  'Detail',
  'Address',
  'Geo',
  'Contact',
  'Hours',
  'Amenity',
  'Amount',
  'Fee',
  'ProtectionPlan',
  'Protection',
  'FacilityInfo',
  'ListResponse',
  'Problem',
];

type JsonSchema = z.core.JSONSchema.BaseSchema;

/**
 * Answers are open: a client that validates them must still accept the fields a later version adds to an object and
 * the words it adds to a vocabulary (docs/api.md, versioning). Query parameters are made apart, and stay closed.
 */
function openAnswer({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodTypes; jsonSchema: JsonSchema }): void {
  if (jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
  if (zodSchema._zod.def.type === 'enum') openVocabulary(jsonSchema);
}

/** A vocabulary as any string, its known words kept in the first branch for readers and code generators. */
function openVocabulary(jsonSchema: JsonSchema): void {
  const { type, enum: known, ...rest } = jsonSchema;
  for (const name of Object.keys(jsonSchema)) delete jsonSchema[name];
  Object.assign(jsonSchema, rest, {
    anyOf: [
      { type, enum: known, title: 'Known value' },
      {
        type: 'string',
        title: 'Later value',
        description:
          'Added after this document: handle it as unknown (a problem by its status, a word by skipping it).',
      },
    ],
  });
}

export function openApiDocument(publicUrl: string) {
  const all = z.toJSONSchema(z.globalRegistry, {
    target: 'draft-2020-12',
    uri: (id) => `#/components/schemas/${id}`,
    override: openAnswer,
  }).schemas;
  const components = Object.fromEntries(
    COMPONENTS.map((name) => {
      const { $schema: _s, $id: _i, ...schema } = all[name] as Record<string, unknown>;
      return [name, schema];
    }),
  );
  const data = exampleData();
  // The example's promotion has no start or end: any instant gives the same example.
  const list = listResponseOf(data, publicUrl, 0);
  const detail = detailOf(data.listings[0]!, data, publicUrl, 0);
  const errors = {
    ...problemResponse(
      'Missing, malformed, unknown or revoked key.',
      ['missing_api_key', 'invalid_api_key', 'revoked_api_key'],
      {
        'WWW-Authenticate': { description: `\`${WWW_AUTHENTICATE}\``, ...str },
      },
    ),
    ...problemResponse('The key is restricted to other browser origins.', ['origin_not_allowed']),
    ...problemResponse(`Any method but ${ALLOWED_METHODS}.`, ['method_not_allowed'], {
      Allow: { description: `\`${ALLOWED_METHODS}\``, ...str },
    }),
    ...problemResponse(
      'Too many requests for this key, or too many failed authentications from this address.',
      ['rate_limited'],
      {
        'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } },
      },
    ),
    ...problemResponse(`The URL is longer than ${MAX_URL_LENGTH} characters.`, ['uri_too_long']),
    ...problemResponse('Unexpected failure; the body never carries internals.', ['internal_error']),
    ...problemResponse(
      'This server cannot confirm its data is current (it runs on a shared database it cannot reach now), so it refuses rather than risk serving a revoked key. Retry after Retry-After seconds; another server behind the same address may answer meanwhile.',
      ['database_unavailable'],
      { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'integer' } } },
    ),
  };
  const notModified = {
    description: 'Not modified: the If-None-Match tag still matches. No body.',
    headers: okHeaders,
  };
  // HEAD answers carry an error's status and headers, without its problem+json body.
  const errorsWithoutBody = withoutBody(errors);
  const ifNoneMatch = {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    schema: { type: 'string' },
    description: 'An ETag from an earlier answer.',
  };
  // No pattern on the id: a malformed id is the same 404 as an unknown one (contract), and a validating proxy would turn
  // a pattern into a 422 the server never gives.
  const id = {
    schema: { type: 'string' },
    description: 'A listing id from the list (`lst_` + 20 hex digits). Anything else is the same 404 as an unknown id.',
  };
  /** A GET and its HEAD: the same parameters and the same answers, the HEAD's without bodies. */
  const readOf = (op: {
    get: string;
    head: string;
    summary: string;
    headSummary: string;
    description: string;
    parameters: unknown[];
    /** The shell command of the `x-codeSamples`, its key `$LISTINGS_KEY`. */
    sample: string;
    ok: { description: string; schema: string; example: unknown };
    /** The problem answer of this operation alone (400 for the list, 404 for one listing). */
    own: ReturnType<typeof problemResponse>;
  }) => ({
    get: {
      operationId: op.get,
      summary: op.summary,
      tags: ['Listings'],
      description: op.description,
      parameters: op.parameters,
      'x-codeSamples': [{ lang: 'Shell', label: 'curl', source: op.sample }],
      responses: {
        '200': {
          description: op.ok.description,
          headers: okHeaders,
          content: {
            'application/json': { schema: { $ref: `#/components/schemas/${op.ok.schema}` }, example: op.ok.example },
          },
        },
        '304': notModified,
        ...op.own,
        ...errors,
      },
    },
    head: {
      operationId: op.head,
      summary: op.headSummary,
      tags: ['Listings'],
      description: 'The headers of the GET, without a body: a cheap way to read the ETag or check a key.',
      parameters: op.parameters,
      responses: {
        '200': { description: 'The headers of the 200 GET answer.', headers: okHeaders },
        '304': notModified,
        ...withoutBody(op.own),
        ...errorsWithoutBody,
      },
    },
  });
  const preflightOf = (operationId: string) => ({
    operationId,
    summary: 'CORS preflight',
    tags: ['CORS'],
    description:
      'What a browser sends before a cross-origin GET with `X-API-Key` (and `If-None-Match`, when a page sends back the ETag it was given). Needs no key.',
    security: [],
    responses: {
      '204': {
        description: 'Allowed: the CORS headers, no body.',
        headers: {
          ...commonHeaders,
          'Access-Control-Allow-Methods': { description: `\`${ALLOWED_METHODS}\``, ...str },
          'Access-Control-Allow-Headers': {
            description: `\`${CORS_HEADERS['access-control-allow-headers']}\``,
            ...str,
          },
          'Access-Control-Max-Age': {
            description: 'Seconds a browser may cache this answer (7200).',
            schema: { type: 'integer' },
          },
        },
      },
      ...problemResponse(`The URL is longer than ${MAX_URL_LENGTH} characters.`, ['uri_too_long']),
    },
  });
  // The URL in single quotes: a shell reads `&` and `?` in a query as its own (a background job, a file pattern).
  const quoted = (url: string) => `'${url.replaceAll("'", "'\\''")}'`;
  const keyOption = '-H "X-API-Key: $LISTINGS_KEY"';
  const curl = (path: string) => `curl ${keyOption} ${quoted(publicUrl + path)}`;
  // The id comes from the key's own list: any fixed id is one facility's listing, a 404 to every other facility's key.
  const detailCommand = [
    "# LISTING_ID: a listing's id from the list (listings[].id), here the first; Node.js reads it (or jq -r '.listings[0].id')",
    `LISTING_ID=$(curl -sS ${keyOption} ${quoted(publicUrl + API_PREFIX)} | node -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).listings[0].id')`,
    `curl ${keyOption} ${quoted(`${publicUrl}${API_PREFIX}/`)}"$LISTING_ID"`,
  ].join('\n');
  return {
    openapi: '3.1.0',
    info: {
      title: 'External Listings API',
      version: '1.0.0',
      description:
        "Read-only listings of one self-storage facility per API key: live prices (dynamic pricing included), free units and photos, exactly as the operator's rental page shows them. " +
        'Money is in minor units with an ISO 4217 currency; periods are ISO 8601 durations; area in m², dimensions in metres. ' +
        'Booking happens on the rental page each listing links to (`rent_url`). Every answer carries CORS headers and `X-Request-Id`; errors are RFC 9457 problem+json. ' +
        'Answers are open objects: any of them may gain fields, and vocabularies (such as problem `code`s) may gain values, without a new version, so clients must ignore fields and values they do not know. ' +
        'Existing fields keep their names, types and meaning; a change that removes or narrows one is announced first with `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers and in the changelog. ' +
        'Outside this two-endpoint API, for load balancers: `GET /healthz` needs no key and answers 200 `ok` only while the server can serve fresh answers, 503 otherwise (see `x-health-check`).',
      contact: { name: 'The operator of this server', url: publicUrl },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    tags: [
      { name: 'Listings', description: "The key's facility and its active listings." },
      { name: 'CORS', description: 'Preflight answers for browsers; no key needed.' },
    ],
    servers: [{ url: publicUrl }],
    'x-health-check': {
      path: '/healthz',
      description:
        'Not part of the API: for load balancers. 200 `ok` (text/plain) while this server can serve fresh answers; 503 with Retry-After while it cannot confirm them (its shared database is unreachable). Needs no key.',
    },
    security: [{ ApiKey: [] }],
    paths: {
      [API_PREFIX]: {
        ...readOf({
          get: 'listListings',
          head: 'headListings',
          summary: "List the key's facility's active listings",
          headSummary: "The list's headers",
          description:
            'In import order unless `sort` is given. `HEAD` answers the same headers without a body. Unknown query parameters are ignored. ' +
            `A filtered or sorted list that has not been made since the data last changed costs one more request of the key's rate limit per ${LISTINGS_PER_TOKEN} listings of the facility; lists already made, and the whole list, cost one.`,
          parameters: [...queryParameters(), ifNoneMatch],
          sample: curl(`${API_PREFIX}?available=true&sort=price`),
          ok: { description: 'The facility and its listings.', schema: 'ListResponse', example: list },
          own: problemResponse('A known query parameter has a malformed value.', ['invalid_parameter']),
        }),
        options: preflightOf('preflightListings'),
      },
      [`${API_PREFIX}/{id}`]: {
        parameters: [{ name: 'id', in: 'path', required: true, ...id, example: detail.id }],
        ...readOf({
          get: 'getListing',
          head: 'headListing',
          summary: 'Get one listing in detail',
          headSummary: "One listing's headers",
          description:
            "Every Summary field plus dimensions, description, periods, deposit, all photos, floor, door, and the facility's fees and protection. A listing of another facility, an inactive one and an unknown or malformed id all give the same 404.",
          parameters: [ifNoneMatch],
          sample: detailCommand,
          ok: { description: 'The listing.', schema: 'Detail', example: detail },
          own: problemResponse('No such listing for this key.', ['not_found']),
        }),
        options: preflightOf('preflightListing'),
      },
    },
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description:
            'A key of the form `svc_live_` + 32 letters and digits, issued by the operator for one facility.',
        },
      },
      schemas: components,
    },
  };
}

/** A sample facility run through the real domain functions, so examples cannot drift from answers. */
function exampleData(): FacilityData {
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
function problemResponse(description: string, codes: DocumentedCode[], extraHeaders: Record<string, unknown> = {}) {
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
function withoutBody(responses: Record<string, { description: string; headers: unknown }>) {
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
const queryParameters = () =>
  LIST_QUERY_PARAMETERS.map((name) => {
    const { schema, description, required } = parameterSchema(ListQuery.shape[name]);
    return { name, in: 'query', required, schema, description };
  });

const str = { schema: { type: 'string' } };
const commonHeaders = {
  'X-Request-Id': { description: 'Unique id of this request; quote it when reporting a problem.', ...str },
  'Access-Control-Allow-Origin': { description: '`*`, or the request origin for an origin-restricted key.', ...str },
};

/** The rate-limit fields of a new key's first answer under the default limit, made by the limiter that makes real ones. */
function defaultLimitExamples(): { policy: string; rateLimit: string } {
  const limiter = new RateLimiter(KEY_POLICY_NAME, () => 0);
  return {
    policy: limiter.policyOf(DEFAULT_KEY_LIMIT),
    rateLimit: limiter.take('new key', DEFAULT_KEY_LIMIT).rateLimit,
  };
}
const limitExamples = defaultLimitExamples();
const keyedHeaders = {
  ...commonHeaders,
  RateLimit: {
    description: `Remaining quota (draft-ietf-httpapi-ratelimit-headers: requests left r, seconds t until full again), e.g. \`${limitExamples.rateLimit}\` in a new key's first answer under the default limit.`,
    ...str,
  },
  'RateLimit-Policy': {
    description: `The quota policy (burst q, seconds w to refill it), e.g. \`${limitExamples.policy}\` for a key with the default limit.`,
    ...str,
  },
  'X-Partner-Ref': {
    description:
      "The key's partner reference: rent links through `/go/{facility}/{code}?ref=` with it credit the partner's clicks.",
    ...str,
  },
};
const okHeaders = {
  ...keyedHeaders,
  ETag: { description: 'Strong entity tag; send it back in If-None-Match to get 304 when nothing changed.', ...str },
  'Cache-Control': { description: 'Always `private, no-cache`: revalidate every time.', ...str },
};
