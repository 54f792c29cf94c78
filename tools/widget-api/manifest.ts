// The element's custom-elements.json: @custom-elements-manifest/analyzer with its Lit support (as Shoelace's does)
// over the element's property table, JSDoc and event map, each type from TypeScript's view of the element.
import { readFileSync } from 'node:fs';
import * as analyzer from '@custom-elements-manifest/analyzer';
import type { Plugin } from '@custom-elements-manifest/analyzer';
import ts from 'typescript';
import type { ElementTypes } from './element-types.ts';
import { CLASS, DEFINE, ELEMENT, path } from './source.ts';

// The package's types describe its plugin API only; `create` and the TypeScript it parses with are its exports too.
const { create, ts: cemTs } = analyzer as unknown as {
  create(options: { modules: ts.SourceFile[]; plugins: Plugin[]; context: object }): Manifest;
  ts: typeof ts;
};
// What `cem analyze --litelement` adds: `static properties` read as fields and attributes, Lit's lifecycle left out.
const LIT_PLUGIN = '@custom-elements-manifest/analyzer/src/features/framework-plugins/lit/lit.js';

/** What this reads and writes of a custom-elements.json (schema 1.0.0). */
export interface Described {
  name: string;
  description?: string;
  default?: string;
  type?: { text: string };
}
interface Field extends Described {
  kind: string;
  privacy?: string;
}
export interface Element {
  kind: string;
  name: string;
  description: string;
  summary?: string;
  tagName?: string;
  members: Field[];
  attributes: (Described & { fieldName: string })[];
  events: Described[];
  slots?: Described[];
  cssParts?: Described[];
  cssProperties?: Described[];
}
export interface Manifest {
  modules: { declarations?: { kind: string; name: string }[] }[];
}

/** The table's own keys: `default` (the value the constructor sets) and `state` (internal, not published). */
function propertyTablePlugin(): Plugin {
  return {
    name: 'storage-listings: property table',
    analyzePhase({ ts, node, moduleDoc }) {
      if (!ts.isClassDeclaration(node) || node.name?.text !== CLASS) return;
      const element = (moduleDoc.declarations as Element[]).find((d) => d.name === CLASS)!;
      const table = node.members.find((m) => ts.isPropertyDeclaration(m) && m.name.getText() === 'properties');
      const entries = table && ts.isPropertyDeclaration(table) ? table.initializer : undefined;
      if (!entries || !ts.isObjectLiteralExpression(entries)) throw new Error(`${CLASS}: no static properties table`);
      for (const entry of entries.properties) {
        if (!ts.isPropertyAssignment(entry)) continue;
        const name = entry.name.getText();
        const keys = ts.isObjectLiteralExpression(entry.initializer) ? entry.initializer.properties : [];
        const key = (k: string) => keys.find((p) => p.name?.getText() === k);
        const value = key('default');
        if (key('state')) {
          element.members = element.members.filter((m) => m.name !== name);
          element.attributes = element.attributes.filter((a) => a.fieldName !== name);
        } else if (value && ts.isPropertyAssignment(value)) {
          const field = element.members.find((m) => m.name === name);
          if (field?.default) throw new Error(`${CLASS}.${name}: a default in the table and in @default; keep one`);
          if (field) field.default = value.initializer.getText();
          const attribute = element.attributes.find((a) => a.fieldName === name);
          if (attribute) attribute.default = value.initializer.getText();
        }
      }
    },
  };
}

/** What a field's attribute takes in markup (and in React and Vue props): the field's type, as text. */
function attributeType(types: ElementTypes, type: ts.Type): string {
  const parts = (type.isUnion() ? type.types : [type]).filter(
    (t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)),
  );
  if (parts.every((t) => t.flags & ts.TypeFlags.BooleanLike)) return 'boolean';
  if (parts.every((t) => t.flags & ts.TypeFlags.NumberLike)) return 'number | string';
  if (parts.every((t) => t.flags & ts.TypeFlags.StringLike)) return parts.map((t) => types.print(t)).join(' | ');
  return 'string'; // JSON, read by the entry's converter
}

const detailName = (event: string) =>
  `${CLASS}${event
    .replace(/^storage-listings-/, '')
    .replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase())}Detail`;

/** The manifest: the analyzer's, public members only, each with its TypeScript type. */
export async function manifestOf(types: ElementTypes): Promise<{ manifest: Manifest; element: Element }> {
  const { litPlugin } = (await import(LIT_PLUGIN)) as { litPlugin: () => Plugin[] };
  const modules = [ELEMENT, DEFINE].map((file) =>
    cemTs.createSourceFile(file, readFileSync(path(file), 'utf8'), cemTs.ScriptTarget.ES2022, true),
  );
  const manifest = create({ modules, plugins: [...litPlugin(), propertyTablePlugin()], context: { dev: false } });
  const element = manifest.modules
    .flatMap((m) => m.declarations ?? [])
    .find((d): d is Element => d.kind === 'class' && d.name === CLASS);
  if (!element) throw new Error(`${ELEMENT}: no ${CLASS} in the manifest`);

  element.members = element.members.filter((m) => m.kind === 'field' && (m.privacy ?? 'public') === 'public');
  for (const field of element.members) field.type = { text: types.print(types.typeOf(types.element, field.name)) };
  for (const attribute of element.attributes) {
    attribute.type = { text: attributeType(types, types.typeOf(types.element, attribute.fieldName)) };
  }

  // The events are the event map's; each documented by a @fires (the analyzer also reports `new CustomEvent(type)`).
  const fired = types.events.getProperties().map((p) => p.name);
  const documented = element.events.filter((e) => fired.includes(e.name));
  const undocumented = fired.filter((name) => !documented.some((e) => e.name === name));
  if (undocumented.length) throw new Error(`${CLASS}: no @fires for ${undocumented.join(', ')}`);
  element.events = documented;
  for (const event of element.events) {
    const detail = types.typeOf(types.typeOf(types.events, event.name), 'detail');
    const name = types.name(detail, detailName(event.name), `\`${event.name}\`: ${event.description}`);
    event.type = { text: `CustomEvent<${name}>` };
  }
  return { manifest, element };
}
