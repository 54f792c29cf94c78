// The OpenAPI document only ever grows: Optic holds it to the committed baseline, failing on a removed field, a changed
// or narrowed type, a new required input; and every answer object is open, so partners who validate accept new fields.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BASELINE_FILE, breakingChanges, currentDocument, type OpenApiDocument } from '../tools/openapi-baseline.ts';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A deep copy of the current document, changed by `edit`. */
function changed(edit: (doc: Json) => void): OpenApiDocument {
  const doc = structuredClone(currentDocument()) as Json;
  edit(doc);
  return doc as OpenApiDocument;
}

const schemas = (doc: Json): Record<string, Json> => doc.components.schemas;
const listParameters = (doc: Json): Json[] => doc.paths['/external/listings'].get.parameters;

/** Every schema object under `value`, nested ones included. */
function* objectsIn(value: unknown): Generator<Json> {
  if (Array.isArray(value)) for (const v of value) yield* objectsIn(v);
  else if (value !== null && typeof value === 'object') {
    yield value as Json;
    for (const v of Object.values(value)) yield* objectsIn(v);
  }
}

/** The known words of each open answer vocabulary (a string `anyOf` whose first branch lists them), by where it is. */
function vocabulariesOf(value: unknown, at = ''): Record<string, string[]> {
  if (value === null || typeof value !== 'object') return {};
  const node = value as Json;
  const own = Array.isArray(node.anyOf?.[0]?.enum) ? { [at]: node.anyOf[0].enum as string[] } : {};
  return Object.entries(node).reduce(
    (found, [key, child]) => ({ ...found, ...vocabulariesOf(child, `${at}/${key}`) }),
    own,
  );
}

describe('the answer objects of the OpenAPI document', () => {
  it('are open: none forbids fields it does not list', () => {
    const doc = currentDocument() as Json;
    const closed = [...objectsIn(schemas(doc))].filter((o) => o.additionalProperties === false);
    expect(closed).toEqual([]);
    expect(doc.info.description).toContain('clients must ignore fields and values they do not know');
  });

  it('keep the known words of their vocabularies as the baseline has them: a new word comes with a new baseline', () => {
    const baseline = JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Json;
    const known = vocabulariesOf(schemas(currentDocument()));
    expect(Object.keys(known)).toEqual(
      expect.arrayContaining(['/Feature', '/UnitType', '/Amenity', '/Problem/properties/code', '/Fee/properties/when']),
    );
    expect(known['/Problem/properties/code']).toContain('not_found');
    expect(known).toEqual(vocabulariesOf(schemas(baseline)));
  });

  it('still list their fields as required: open is not optional', () => {
    expect(schemas(currentDocument()).Price!.required).toEqual(['gross', 'net', 'vat_rate', 'currency', 'period']);
  });
});

describe('the breaking-change check (Optic against the committed baseline)', { timeout: 120_000 }, () => {
  it('passes on the current document', () => {
    const r = breakingChanges(currentDocument());
    expect(r.output).not.toContain('breaking change');
    expect(r.status).toBe(0);
  });

  it('passes on an additive change: a new answer field and a new optional query parameter', () => {
    const r = breakingChanges(
      changed((doc) => {
        schemas(doc).Summary!.properties.unit_type = { type: ['string', 'null'] };
        listParameters(doc).push({ name: 'unit_type', in: 'query', required: false, schema: { type: 'string' } });
      }),
    );
    expect(r.status, r.output).toBe(0);
  });

  it('fails on a removed answer field', () => {
    const r = breakingChanges(
      changed((doc) => {
        const price = schemas(doc).Price!;
        delete price.properties.net;
        price.required = price.required.filter((name: string) => name !== 'net');
      }),
    );
    expect(r.output).toContain("cannot remove response property 'net'");
    expect(r.status).toBe(1);
  });

  it('fails on a changed answer type', () => {
    const r = breakingChanges(changed((doc) => (schemas(doc).Price!.properties.gross = { type: 'string' })));
    expect(r.output).toContain('prevent response property type changes');
    expect(r.status).toBe(1);
  });

  it('fails on a required answer field made optional', () => {
    const r = breakingChanges(
      changed((doc) => {
        const summary = schemas(doc).Summary!;
        summary.required = summary.required.filter((name: string) => name !== 'free_units');
      }),
    );
    expect(r.output).toContain("cannot make required response property 'free_units' optional");
    expect(r.status).toBe(1);
  });

  it('fails on an answer vocabulary closed again', () => {
    const r = breakingChanges(
      changed((doc) => {
        const code = schemas(doc).Problem!.properties.code;
        schemas(doc).Problem!.properties.code = code.anyOf[0];
      }),
    );
    expect(r.output).toContain('prevent narrowing in response union types');
    expect(r.status).toBe(1);
  });

  it('fails on a narrowed input: a sort value removed', () => {
    const r = breakingChanges(
      changed((doc) => {
        const sort = listParameters(doc).find((p) => p.name === 'sort')!;
        sort.schema.enum = sort.schema.enum.filter((v: string) => v !== 'price');
      }),
    );
    expect(r.output).toContain("cannot remove enum option 'price'");
    expect(r.status).toBe(1);
  });

  it('fails on a new required input, even with a major version', () => {
    const r = breakingChanges(
      changed((doc) => {
        doc.info.version = '2.0.0';
        listParameters(doc).push({ name: 'region', in: 'query', required: true, schema: { type: 'string' } });
      }),
    );
    expect(r.output).toContain('cannot add required query parameter region');
    expect(r.status).toBe(1);
  });

  it('compares against a baseline that is an OpenAPI 3.1 document of both endpoints', () => {
    const baseline = JSON.parse(readFileSync(BASELINE_FILE, 'utf8')) as Json;
    expect(baseline.openapi).toBe('3.1.0');
    expect(Object.keys(baseline.paths)).toEqual(['/external/listings', '/external/listings/{id}']);
  });
});
