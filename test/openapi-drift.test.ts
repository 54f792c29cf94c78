// The OpenAPI document and the server cannot drift: the document's query parameters accept exactly what the parser
// accepts, every sort value is in both, and its problem examples are byte for byte what the API answers.
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SORT_KEYS } from '../shared/sort.ts';
import { openApiDocument } from '../server/http/api/openapi.ts';
import { parseListQuery } from '../server/http/views/query.ts';
import { issueKey } from './helpers/fixture.ts';
import { call, json, type CallOptions } from './helpers/http.ts';
import { useDemoHandler } from './helpers/setup.ts';

const LIST = '/external/listings';
const DETAIL = '/external/listings/{id}';

interface Parameter {
  name: string;
  in: string;
  schema: Record<string, unknown>;
}

const doc = openApiDocument('http://127.0.0.1:1');
const parametersOf = (path: string): Parameter[] =>
  doc.paths[path as keyof typeof doc.paths].get.parameters as Parameter[];
const queryParameters = parametersOf(LIST).filter((p) => p.in === 'query');
const ajv = new Ajv2020({ strict: true });

/** Whether the parser takes `value` for `name` alone: a 400 invalid_parameter naming it, or a query. */
function parserAccepts(name: string, value: string): boolean {
  const parsed = parseListQuery(`?${new URLSearchParams({ [name]: value })}`);
  if (typeof parsed !== 'string') return parsed !== undefined;
  expect(parsed.startsWith(`${name}: `)).toBe(true);
  return false;
}

const TRICKY = [
  '',
  ' ',
  'true',
  'false',
  'TRUE',
  'yes',
  '0',
  '7',
  '7.5',
  '7.',
  '.5',
  '-1',
  '1e3',
  '12345678',
  '1.23456',
  'Infinity',
  'NaN',
  'price ',
  'PRICE',
  'name',
];

describe('the query parameters of the document', () => {
  it('are the ones the parser knows: each is read, anything else is ignored', () => {
    expect(queryParameters.map((p) => p.name).sort()).toEqual([
      'available',
      'features',
      'max_area',
      'min_area',
      'sort',
      'unit_type',
    ]);
    for (const { name } of queryParameters) expect(parserAccepts(name, '\u0000 not a value'), name).toBe(false);
    for (const name of ['limit', 'Sort', 'page', 'area']) expect(parseListQuery(`?${name}=nope`), name).toBeUndefined();
  });

  it('list every sort value the parser accepts, and the parser accepts every value they list', () => {
    const sort = queryParameters.find((p) => p.name === 'sort')!;
    expect(sort.schema.enum).toEqual([...SORT_KEYS]);
    for (const value of SORT_KEYS) expect(parserAccepts('sort', value), value).toBe(true);
    for (const value of TRICKY) expect(parserAccepts('sort', value), value).toBe(false);
  });

  it.each(queryParameters.map((p) => [p.name, p] as const))(
    '%s: the schema accepts exactly what the parser accepts',
    (name, parameter) => {
      const valid = ajv.compile(parameter.schema);
      const same = (value: string) => {
        expect([value, valid(value)]).toEqual([value, parserAccepts(name, value)]);
      };
      for (const value of [...TRICKY, ...((parameter.schema.enum as string[] | undefined) ?? [])]) same(value);
      const unit = fc.constantFrom(...'0123456789.-+eE tTrufalsepicdo');
      fc.assert(
        fc.property(fc.string({ unit, maxLength: 12 }), (value) => same(value)),
        { numRuns: 300 },
      );
    },
  );

  it('puts no pattern on the detail id: every string reaches the server, which answers a malformed one with the same 404', () => {
    const paths = doc.paths as unknown as Record<
      string,
      { parameters: { name: string; in: string; schema: object }[] }
    >;
    const id = paths[DETAIL]!.parameters.find((p) => p.name === 'id')!;
    expect(id.in).toBe('path');
    for (const value of ['lst_0123456789abcdef0123', 'lst_0123456789ABCDEF0123', 'nope'])
      expect(ajv.compile(id.schema)(value)).toBe(true);
  });
});

describe('the problem examples of the document', () => {
  let key: string;
  const demo = useDemoHandler({
    prepare: (db) => {
      key = issueKey(db, 'wro-1').key;
    },
  });

  type Examples = { examples: Record<string, { value: unknown }> };
  type Responses = Record<string, { content: Record<string, Examples> }>;
  const exampleOf = (path: string, status: string, code: string): unknown =>
    (doc.paths as unknown as Record<string, { get: { responses: Responses } }>)[path]!.get.responses[status]!.content[
      'application/problem+json'
    ]!.examples[code]!.value;

  it.each([
    [LIST, '401', 'missing_api_key', `${LIST}`, {}],
    [LIST, '401', 'invalid_api_key', `${LIST}`, { key: 'svc_live_not0a0real0key' }],
    [LIST, '400', 'invalid_parameter', `${LIST}?sort=nope`, 'key'],
    [LIST, '405', 'method_not_allowed', `${LIST}`, { method: 'POST' }],
    [DETAIL, '404', 'not_found', `${LIST}/lst_00000000000000000000`, 'key'],
  ] as const)('%s %s %s is the body the API answers', async (path, status, code, url, opts) => {
    const reply = await call(demo.handler, url, opts === 'key' ? { key } : (opts as CallOptions));
    expect(reply.status).toBe(Number(status));
    expect(json(reply)).toEqual(exampleOf(path, status, code));
  });
});
