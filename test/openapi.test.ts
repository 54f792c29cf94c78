// The OpenAPI document the handler serves: its shape, and every 200 body of the API validated against it with a JSON-schema validator.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { demoJson, issueKey } from './helpers/fixture.ts';
import { call, json } from './helpers/http.ts';
import { PUBLIC_URL } from './helpers/inject.ts';
import { useDemoHandler } from './helpers/setup.ts';

const LIST = '/external/listings';
const DETAIL = '/external/listings/{id}';
const DOC_ID = 'urn:storage-listings:openapi';

const keys = new Map<string, string>();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
let doc: any;
let ajv: Ajv2020;

const demo = useDemoHandler({
  prepare: (db) => demoJson().facilities.forEach((f) => keys.set(f.id, issueKey(db, f.id).key)),
});
beforeAll(async () => {
  const r = await call(demo.handler, '/openapi.json');
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  doc = json(r);
  // The document's components under an $id, so that its "#/components/schemas/X" references resolve as they are.
  // RFC 3339 date-times (promotion times): the one format the document uses, checked, not ignored.
  const dateTime = (s: string) =>
    /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s) && !Number.isNaN(Date.parse(s));
  ajv = new Ajv2020({ strict: true, allErrors: true, formats: { 'date-time': dateTime } });
  ajv.addVocabulary(['components']);
  ajv.addSchema({ $id: DOC_ID, components: { schemas: doc.components.schemas } });
});

/** A validator for a `$ref` as the document writes it. */
function validatorFor(ref: string): ValidateFunction {
  expect(ref).toMatch(/^#\/components\/schemas\/\w+$/);
  return ajv.getSchema(DOC_ID + ref) ?? ajv.compile({ $ref: DOC_ID + ref });
}

function expectValid(ref: string, value: unknown) {
  const validate = validatorFor(ref);
  const ok = validate(value);
  expect(validate.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const responsesOf = (path: string): Record<string, any> => doc.paths[path].get.responses;
const okSchemaOf = (path: string): string => responsesOf(path)['200'].content['application/json'].schema.$ref;

describe('the document', () => {
  it('is OpenAPI 3.1 with the X-API-Key security scheme and exactly the two API paths', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.components.securitySchemes.ApiKey).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-API-Key' });
    expect(doc.security).toEqual([{ ApiKey: [] }]);
    expect(Object.keys(doc.paths).sort()).toEqual([LIST, DETAIL]);
    expect(doc.servers[0].url).toBe(PUBLIC_URL);
  });

  it('documents every status code the API answers', () => {
    const common = ['200', '304', '401', '403', '405', '414', '429', '500', '503'];
    expect(Object.keys(responsesOf(LIST)).sort()).toEqual([...common, '400'].sort());
    expect(Object.keys(responsesOf(DETAIL)).sort()).toEqual([...common, '404'].sort());
    expect(responsesOf(LIST)['405'].headers).toHaveProperty('Allow');
    expect(responsesOf(LIST)['429'].headers).toHaveProperty('Retry-After');
    expect(responsesOf(LIST)['503'].headers).toHaveProperty('Retry-After');
    expect(doc['x-health-check'].path).toBe('/healthz');
    expect(responsesOf(DETAIL)['401'].headers).toHaveProperty('WWW-Authenticate');
    expect(responsesOf(DETAIL)['200'].headers).toHaveProperty('ETag');
  });

  it('describes the list with its query parameters and the detail with its id', () => {
    // Parameters of the path (the detail's id) and of the operation.
    const names = (path: string) =>
      [...(doc.paths[path].parameters ?? []), ...doc.paths[path].get.parameters].map((p: { name: string }) => p.name);
    expect(names(LIST)).toEqual(expect.arrayContaining(['available', 'min_area', 'max_area', 'sort', 'If-None-Match']));
    expect(names(DETAIL)).toEqual(expect.arrayContaining(['id', 'If-None-Match']));
    const sort = doc.paths[LIST].get.parameters.find((p: { name: string }) => p.name === 'sort');
    expect(sort.schema.enum).toEqual(['price', '-price', 'area', '-area', 'code']);
  });

  it('answers 200 bodies with ListResponse and Detail, and errors with Problem', () => {
    expect(okSchemaOf(LIST)).toBe('#/components/schemas/ListResponse');
    expect(okSchemaOf(DETAIL)).toBe('#/components/schemas/Detail');
    for (const path of [LIST, DETAIL]) {
      for (const [status, response] of Object.entries(responsesOf(path))) {
        if (Number(status) < 400) continue;
        expect(response.content['application/problem+json'].schema.$ref).toBe('#/components/schemas/Problem');
      }
    }
  });

  it('has examples, and each validates against its own schema', () => {
    let count = 0;
    for (const path of [LIST, DETAIL]) {
      const ok = responsesOf(path)['200'].content['application/json'];
      expect(ok.example).toBeDefined();
      expectValid(ok.schema.$ref, ok.example);
      count++;
      for (const [status, response] of Object.entries(responsesOf(path))) {
        if (Number(status) < 400) continue;
        const content = response.content['application/problem+json'];
        const examples = Object.values(content.examples) as { value: { status: number } }[];
        expect(examples.length).toBeGreaterThan(0);
        for (const { value } of examples) {
          expectValid(content.schema.$ref, value);
          expect(value.status).toBe(Number(status));
          count++;
        }
      }
      expect(doc.paths[path].get['x-codeSamples'][0].source).toContain('X-API-Key');
    }
    expect(count).toBeGreaterThan(10);
    // Each sample pastes into a shell as it reads: the key from the variable, the whole URL, query and all, one word;
    // the detail's id is the one the list gave (here a stand-in for Node.js reading it).
    const listed = 'lst_0123456789abcdef0123';
    const urls: Record<string, string> = {
      [LIST]: `${PUBLIC_URL}${LIST}?available=true&sort=price`,
      [DETAIL]: `${PUBLIC_URL}${LIST}/${listed}`,
    };
    for (const path of [LIST, DETAIL]) {
      const source = doc.paths[path].get['x-codeSamples'][0].source as string;
      const stubs = `curl() { printf '%s\\n' "$@"; }; node() { cat > /dev/null; echo ${listed}; }`;
      const args = execFileSync('bash', ['-c', `${stubs}\n${source}`], {
        encoding: 'utf8',
        env: { ...process.env, LISTINGS_KEY: 'svc_example' },
      });
      expect(args.trimEnd().split('\n')).toEqual(['-H', 'X-API-Key: svc_example', urls[path]]);
    }
    // No pattern: a malformed id is the same 404 (contract); a validating proxy would make a pattern a 422.
    const idParam = doc.paths[DETAIL].parameters.find((p: { name: string }) => p.name === 'id');
    expect(idParam.schema).toEqual({ type: 'string' });
    expect(idParam.example).toMatch(/^lst_[0-9a-f]{20}$/);
  });

  it('describes HEAD and OPTIONS as operations: HEAD with the GET answers but no bodies, OPTIONS with no key', () => {
    for (const path of [LIST, DETAIL]) {
      const head = doc.paths[path].head;
      expect(Object.keys(head.responses).sort()).toEqual(Object.keys(responsesOf(path)).sort());
      for (const response of Object.values(head.responses) as { content?: unknown }[])
        expect(response.content).toBeUndefined();
      expect(doc.paths[path].options.security).toEqual([]);
      const preflight = doc.paths[path].options.responses['204'].headers;
      expect(preflight).toHaveProperty('Access-Control-Allow-Methods');
      expect(preflight['Access-Control-Allow-Headers'].description).toBe('`X-API-Key, If-None-Match`');
    }
  });

  it('accepts a vocabulary value an answer may gain later, listing the known ones; query parameters stay closed', () => {
    const list = structuredClone(responsesOf(LIST)['200'].content['application/json'].example);
    const detail = structuredClone(responsesOf(DETAIL)['200'].content['application/json'].example);
    // Each vocabulary of an answer, given a word this document does not know, as docs/api.md says may come.
    list.facility.amenities = ['sauna'];
    list.facility.fees[0].when = 'monthly';
    Object.assign(detail, { unit_type: 'boat', features: ['sprinklers'] });
    detail.promotions[0].kind = 'free_period';
    detail.move_in.parts[0].kind = 'insurance';
    detail.fees[0].when = 'monthly';
    expectValid(okSchemaOf(LIST), list);
    expectValid(okSchemaOf(DETAIL), detail);
    const problem = { type: 'about:blank', title: 'Conflict', status: 409, detail: 'New.', code: 'some_new_code' };
    expectValid('#/components/schemas/Problem', problem);
    // Open to new words, not to anything: a value is still a string, and the known ones are still listed.
    expect(validatorFor('#/components/schemas/Problem')({ ...problem, code: 409 })).toBe(false);
    expect(validatorFor(okSchemaOf(DETAIL))({ ...detail, features: [1] })).toBe(false);
    expect(JSON.stringify(doc.components.schemas.Feature)).toContain('"drive_up"');
    expect(JSON.stringify(doc.components.schemas.Problem)).toContain('"not_found"');
    // The server refuses a filter word it does not know, and the document says so.
    const sort = doc.paths[LIST].get.parameters.find((p: { name: string }) => p.name === 'sort');
    expect(sort.schema).toEqual({ type: 'string', enum: ['price', '-price', 'area', '-area', 'code'] });
  });

  it('is strict enough to refuse a wrong body (the validator is really at work)', () => {
    const example = structuredClone(responsesOf(DETAIL)['200'].content['application/json'].example);
    const validate = validatorFor(okSchemaOf(DETAIL));
    expect(validate({ ...example, price: { ...example.price, gross: '329.00' } })).toBe(false);
    // Answers are open objects: a field the client does not know is accepted, never a reason to refuse the answer.
    expect(validate({ ...example, extra: 1 })).toBe(true);
    const { deposit: _d, ...withoutDeposit } = example;
    expect(validate(withoutDeposit)).toBe(false);
    expect(validatorFor('#/components/schemas/Problem')({ status: 404, code: 'not_found' })).toBe(false);
  });
});

describe('every 200 body of the API', () => {
  it('validates, for every listing of every demo facility', async () => {
    let details = 0;
    for (const [facility, key] of keys) {
      for (const query of ['', '?available=true&sort=-price', '?min_area=1000']) {
        const list = await call(demo.handler, LIST + query, { key });
        expect(list.status).toBe(200);
        expectValid(okSchemaOf(LIST), json(list));
        expect(json(list).facility.id).toBe(facility);
      }
      for (const { id } of json(await call(demo.handler, LIST, { key })).listings) {
        const detail = await call(demo.handler, `${LIST}/${id}`, { key });
        expect(detail.status).toBe(200);
        expectValid(okSchemaOf(DETAIL), json(detail));
        details++;
      }
    }
    const active = demoJson().facilities.flatMap((f) => f.listings.filter((l: { active: boolean }) => l.active));
    expect(details).toBe(active.length);
  });

  it('and the problem bodies validate against Problem', async () => {
    const key = keys.get('wro-1')!;
    const replies = await Promise.all([
      call(demo.handler, LIST),
      call(demo.handler, LIST, { key: 'svc_live_x' }),
      call(demo.handler, `${LIST}/nope`, { key }),
      call(demo.handler, `${LIST}?sort=nope`, { key }),
      call(demo.handler, LIST, { key, method: 'POST' }),
    ]);
    expect(replies.map((r) => r.status)).toEqual([401, 401, 404, 400, 405]);
    for (const r of replies)
      expectValid(responsesOf(LIST)['401'].content['application/problem+json'].schema.$ref, json(r));
  });
});
