// The element's custom-elements.json: @custom-elements-manifest/analyzer with its Lit support (as Shoelace's does)
// over the element's decorated properties, JSDoc and event map, each type from TypeScript's view of the element.

// The analyzer's command line, run in this process (`cli` answers the manifest when asked not to write it): its
// `--litelement` reads Lit's decorated properties as fields and attributes, as `cem analyze --litelement` does.
import { cli } from '@custom-elements-manifest/analyzer/cli.js';
import ts from 'typescript';
import type { ElementTypes } from './element-types.ts';
import { CLASS, DEFINE, ELEMENT, path } from './source.ts';

/** The analyzer's options: Lit, and no `customElements` key written into package.json. */
const CONFIG = 'tools/widget-api/custom-elements-manifest.config.js';

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

/** What a field's attribute takes in markup (and in React and Vue props): the field's type, as text. */
function attributeType(types: ElementTypes, type: ts.Type): string {
  const parts = (type.isUnion() ? type.types : [type]).filter(
    (t) => !(t.flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)),
  );
  if (parts.every((t) => t.flags & ts.TypeFlags.BooleanLike)) return 'boolean';
  if (parts.every((t) => t.flags & ts.TypeFlags.NumberLike)) return 'number | string';
  if (parts.every((t) => t.flags & ts.TypeFlags.StringLike)) return parts.map((t) => types.print(t)).join(' | ');
  // JSON: its text in markup; React and Vue set the property, which takes the field's own type (the object) too.
  return [...new Set(['string', ...parts.map((t) => types.print(t))])].join(' | ');
}

const detailName = (event: string) =>
  `${CLASS}${event
    .replace(/^storage-listings-/, '')
    .replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase())}Detail`;

/** The manifest: the analyzer's, public members only, each with its TypeScript type. */
export async function manifestOf(types: ElementTypes): Promise<{ manifest: Manifest; element: Element }> {
  const argv = ['analyze', '--config', path(CONFIG), '--globs', ELEMENT, DEFINE, '--quiet'];
  const manifest = (await cli({ argv, cwd: path('.'), noWrite: true })) as Manifest;
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
