// The widget's published API, made from the one place it is declared: the element's property table, its JSDoc and its
// event map (widget/src/). custom-elements.json comes from @custom-elements-manifest/analyzer with its Lit support (as
// Shoelace's does), each type from TypeScript's view of the element; the .d.ts (with its React and Vue parts) and the
// attribute table of docs/widget.md are written from that manifest. `npm run widget:api` writes them all;
// test/widget-api.test.ts fails when one differs from what this makes now.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as analyzer from '@custom-elements-manifest/analyzer';
import type { Plugin } from '@custom-elements-manifest/analyzer';
import * as prettier from 'prettier';
import ts from 'typescript';

const ELEMENT = 'widget/src/storage-listings.ts';
const DEFINE = 'widget/src/define.ts';
const EVENTS = 'widget/src/events.ts';
const CLASS = 'StorageListings';
const EVENT_MAP = 'StorageListingsEventMap';
export const MANIFEST = 'widget/custom-elements.json';
export const TYPES = 'widget/types/storage-listings.d.ts';
export const DOCS = 'docs/widget.md';
export const DOCS_START = '<!-- attributes:start -->';
export const DOCS_END = '<!-- attributes:end -->';

const path = (file: string) => fileURLToPath(new URL(`../${file}`, import.meta.url));

// The package's types describe its plugin API only; `create` and the TypeScript it parses with are its exports too.
const { create, ts: cemTs } = analyzer as unknown as {
  create(options: { modules: ts.SourceFile[]; plugins: Plugin[]; context: object }): Manifest;
  ts: typeof ts;
};
// What `cem analyze --litelement` adds: `static properties` read as fields and attributes, Lit's lifecycle left out.
const LIT_PLUGIN = '@custom-elements-manifest/analyzer/src/features/framework-plugins/lit/lit.js';

/** What this reads and writes of a custom-elements.json (schema 1.0.0). */
interface Described {
  name: string;
  description?: string;
  default?: string;
  type?: { text: string };
}
interface Field extends Described {
  kind: string;
  privacy?: string;
}
interface Element {
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
interface Manifest {
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

/** A JavaScript literal (a default the code sets), rather than words (a `@default` that says what happens). */
const isLiteral = (text: string) => /^(true|false|-?\d+(\.\d+)?|'[^']*'|"[^"]*")$/.test(text);

/** TypeScript's view of the element: each public field's type, printed so that the .d.ts needs no other file. */
class ElementTypes {
  readonly checker: ts.TypeChecker;
  readonly element: ts.Type;
  readonly events: ts.Type;
  private readonly program: ts.Program;
  private readonly names = new Map<ts.Type, string>();
  private readonly declared: { type: ts.Type; name: string; doc?: string }[] = [];

  constructor() {
    const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} };
    const config = ts.getParsedCommandLineOfConfigFile(path('tsconfig.json'), {}, host);
    if (!config) throw new Error('tsconfig.json: unreadable');
    this.program = ts.createProgram([path(ELEMENT), path(EVENTS)], config.options);
    this.checker = this.program.getTypeChecker();
    this.element = this.declaredType(ELEMENT, CLASS);
    this.events = this.declaredType(EVENTS, EVENT_MAP);
  }

  private declaredType(file: string, name: string): ts.Type {
    const source = this.program.getSourceFile(path(file));
    const node = source?.statements.find(
      (s) => (ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.name?.text === name,
    ) as ts.ClassDeclaration | ts.InterfaceDeclaration | undefined;
    if (!node?.name) throw new Error(`${file}: no ${name}`);
    return this.checker.getTypeAtLocation(node.name);
  }

  typeOf(owner: ts.Type, property: string): ts.Type {
    const symbol = owner.getProperty(property);
    if (!symbol) throw new Error(`${this.checker.typeToString(owner)} has no ${property}`);
    return this.checker.getTypeOfSymbol(symbol);
  }

  /** Publishes a type under a name: printed as that name, declared once among `declarations()`. */
  name(type: ts.Type, name: string, doc?: string): string {
    if (!this.names.has(type)) {
      this.names.set(type, name);
      this.declared.push({ type, name, doc });
    }
    return name;
  }

  private fromProject(symbol: ts.Symbol | undefined): boolean {
    return !!symbol?.declarations?.some((d) => {
      const file = d.getSourceFile();
      return !this.program.isSourceFileDefaultLibrary(file) && !file.fileName.includes('/node_modules/');
    });
  }

  print(type: ts.Type, optional = false): string {
    const named = this.names.get(type);
    if (named) return named;
    if (type.isUnion()) {
      const parts = type.types.filter((t) => !(optional && t.flags & ts.TypeFlags.Undefined)).map((t) => this.print(t));
      const both = parts.includes('true') && parts.includes('false');
      const unique = [...new Set(parts.map((p) => (both && (p === 'true' || p === 'false') ? 'boolean' : p)))];
      const last = ['null', 'undefined']; // where TypeScript itself prints them
      return [...unique.filter((p) => !last.includes(p)), ...last.filter((p) => unique.includes(p))].join(' | ');
    }
    if (this.checker.isArrayType(type)) {
      const [item] = this.checker.getTypeArguments(type as ts.TypeReference);
      return item ? `${item.isUnion() ? `(${this.print(item)})` : this.print(item)}[]` : 'unknown[]';
    }
    const alias = type.aliasSymbol;
    if (alias && type.aliasTypeArguments && !this.fromProject(alias)) {
      return `${alias.name}<${type.aliasTypeArguments.map((t) => this.print(t)).join(', ')}>`;
    }
    const symbol = alias ?? type.getSymbol();
    const structured = (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) !== 0;
    if (structured && symbol && this.fromProject(symbol) && !symbol.name.startsWith('__')) {
      return this.name(type, `${CLASS}${symbol.name}`, this.docOf(symbol));
    }
    const anonymous = !symbol || symbol.name.startsWith('__');
    if (type.flags & ts.TypeFlags.Object && anonymous && !type.getCallSignatures().length) {
      return `{ ${this.members(type)} }`;
    }
    return this.checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  }

  private docOf(symbol: ts.Symbol): string {
    return ts.displayPartsToString(symbol.getDocumentationComment(this.checker));
  }

  private members(type: ts.Type): string {
    return this.checker
      .getPropertiesOfType(type)
      .map((p) => {
        const optional = (p.flags & ts.SymbolFlags.Optional) !== 0;
        const key = /^[A-Za-z_$][\w$]*$/.test(p.name) ? p.name : `'${p.name}'`;
        const line = `${key}${optional ? '?' : ''}: ${this.print(this.checker.getTypeOfSymbol(p), optional)};`;
        const doc = this.docOf(p);
        return doc ? `${comment(doc, '')}\n${line}` : line;
      })
      .join('\n');
  }

  /** The named types, declared in the order they were first met (and those they name in turn). */
  declarations(): string {
    const out: string[] = [];
    for (let i = 0; i < this.declared.length; i++) {
      const { type, name, doc } = this.declared[i]!;
      out.push(`${doc ? `${comment(doc, '')}\n` : ''}export interface ${name} {\n${this.members(type)}\n}`);
    }
    return out.join('\n\n');
  }
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

/** A JSDoc comment, its text re-wrapped at 120 columns: a tag starts a line, an empty line stays. */
function comment(text: string, indent: string): string {
  const width = 120 - indent.length - 3;
  const lines: string[] = [];
  for (const block of text.split(/\n{2,}/)) {
    if (lines.length) lines.push('');
    for (const paragraph of block.split(/\n(?=@)/)) {
      let line = '';
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        if (line && line.length + 1 + word.length > width) {
          lines.push(line);
          line = word;
        } else line = line ? `${line} ${word}` : word;
      }
      lines.push(line);
    }
  }
  if (lines.length === 1 && lines[0]!.length <= width - 4) return `${indent}/** ${lines[0]} */`;
  return [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`.trimEnd()), `${indent} */`].join('\n');
}

const detailName = (event: string) =>
  `${CLASS}${event
    .replace(/^storage-listings-/, '')
    .replace(/(^|-)(\w)/g, (_, _dash, c: string) => c.toUpperCase())}Detail`;

/** The manifest: the analyzer's, public members only, each with its TypeScript type. */
async function manifestOf(types: ElementTypes): Promise<{ manifest: Manifest; element: Element }> {
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

function classComment(element: Element): string {
  const tags = [
    ...element.events.map((e) => `@fires ${e.name} - ${e.description}`),
    ...(element.slots ?? []).map((s) => `@slot ${s.name ? `${s.name} ` : ''}- ${s.description}`),
    ...(element.cssParts ?? []).map((p) => `@csspart ${p.name} - ${p.description}`),
    ...(element.cssProperties ?? []).map(
      (p) => `@cssproperty ${p.default ? `[${p.name}=${p.default}]` : p.name} - ${p.description}`,
    ),
  ];
  return comment(`${element.description}\n\n@summary ${element.summary}\n\n${tags.join('\n')}`, '');
}

function fieldComment(doc: { description?: string; default?: string }, indent: string): string {
  return comment([doc.description ?? '', ...(doc.default ? [`@default ${doc.default}`] : [])].join('\n'), indent);
}

function typesOf(types: ElementTypes, element: Element): string {
  const tag = element.tagName!;
  const events = element.events.map((e) => [e.name, e.type!.text] as const);
  const listeners = (method: 'add' | 'remove', options: string) => `
  ${method}EventListener<K extends keyof ${EVENT_MAP}>(
    type: K,
    listener: (this: ${CLASS}, event: ${EVENT_MAP}[K]) => void,
    options?: boolean | ${options},
  ): void;
  ${method}EventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | ${options},
  ): void;`;
  const declarations = types.declarations();
  return `// Generated by \`npm run widget:api\` (tools/widget-api.ts) from ${ELEMENT}: edit that, not this.
// Types of <${tag}> for TypeScript, React 19 (JSX) and Vue 3: the widget build copies this file next to the
// bundle (dist/widget/storage-listings.d.ts). Needs no package at run time; the React and Vue parts augment those
// packages' types (with \`skipLibCheck\`, as in every Vite and Next template, a project without one of them is fine).

${declarations}

export interface ${EVENT_MAP} {
${events.map(([name, type]) => `  '${name}': ${type};`).join('\n')}
}

/** The element's HTML attributes (kebab-case, as written in markup). */
export interface ${CLASS}Attributes {
${element.attributes.map((a) => `${fieldComment(a, '  ')}\n  '${a.name}'?: ${a.type!.text};`).join('\n')}
}

/** Event handler props React 19 binds on a custom element: \`on\` + the event's name. */
export interface ${CLASS}ReactEvents {
${events.map(([name, type]) => `  'on${name}'?: (event: ${type}) => void;`).join('\n')}
}

${classComment(element)}
export declare class ${CLASS} extends HTMLElement {
${element.members.map((m) => `${fieldComment(m, '  ')}\n  ${m.name}: ${m.type!.text};`).join('\n')}
  /** Resolves once the element has rendered its latest change. */
  readonly updateComplete: Promise<boolean>;${listeners('add', 'AddEventListenerOptions')}${listeners(
    'remove',
    'EventListenerOptions',
  )}
}

declare global {
  interface HTMLElementTagNameMap {
    '${tag}': ${CLASS};
  }
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      '${tag}': import('react').DetailedHTMLProps<import('react').HTMLAttributes<${CLASS}>, ${CLASS}> &
        ${CLASS}Attributes &
        ${CLASS}ReactEvents;
    }
  }
}

declare module 'vue' {
  interface GlobalComponents {
    '${tag}': import('vue').DefineComponent<${CLASS}Attributes>;
  }
}
`;
}

/** The attribute table of docs/widget.md. */
function attributeTable(element: Element): string {
  const cell = (text = '') => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');
  const defaultOf = (text: string | undefined) => {
    if (!text) return '';
    if (!isLiteral(text)) return cell(text);
    if (text === 'false') return 'off';
    return `\`${text.replace(/^['"]|['"]$/g, '')}\``;
  };
  const row = (cells: string[]) => `|${cells.map((c) => (c ? ` ${c} ` : ' ')).join('|')}|`;
  const rows = element.attributes.map((a) => row([`\`${a.name}\``, defaultOf(a.default), cell(a.description)]));
  return [row(['Attribute', 'Default', 'What it does']), '|---|---|---|', ...rows].join('\n');
}

/** docs/widget.md with its attribute table replaced (the rest of the file is the docs' own). */
export function withAttributeTable(docs: string, table: string): string {
  const start = docs.indexOf(DOCS_START);
  const end = docs.indexOf(DOCS_END);
  if (start < 0 || end < start) throw new Error(`${DOCS}: no ${DOCS_START} ... ${DOCS_END}`);
  return `${docs.slice(0, start + DOCS_START.length)}\n\n${table}\n\n${docs.slice(end)}`;
}

/** Every generated file, by its path in the repository, as the generator makes it now. */
export async function widgetApi(): Promise<Map<string, string>> {
  const types = new ElementTypes();
  // The listings the element shows (its `listings` state) are the type its events carry: named once, first.
  const [listing] = types.checker.getTypeArguments(types.typeOf(types.element, 'listings') as ts.TypeReference);
  const doc = "A listing as the widget shows it and puts in its events: the API's `Summary`.";
  if (listing) types.name(listing, `${CLASS}Listing`, doc);
  const { manifest, element } = await manifestOf(types);
  const dts = await prettier.format(typesOf(types, element), {
    ...(await prettier.resolveConfig(path(TYPES))),
    filepath: path(TYPES),
  });
  return new Map([
    [MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`],
    [TYPES, dts],
    [DOCS, withAttributeTable(readFileSync(path(DOCS), 'utf8'), attributeTable(element))],
  ]);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const [file, text] of await widgetApi()) {
    writeFileSync(path(file), text);
    process.stdout.write(`widget:api: wrote ${file}\n`);
  }
}
