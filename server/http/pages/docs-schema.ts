// The schemas half of /docs: each component schema as a property table, types as short readable text, and the small
// HTML helpers the page shares (prose with `code`, anchors).
import { esc, Html, html } from './html.ts';

// A JSON Schema is open-ended: the page reads the few keywords it shows and prints the rest as JSON.
export const SCHEMA_REF = '#/components/schemas/';

export type JsonSchema = { [keyword: string]: unknown };

export function renderSchema(name: string, schema: JsonSchema): Html {
  const id = anchorOf('schema', name);
  return html`<section class="schema" aria-labelledby="${id}">
    <h3 id="${id}">${name}</h3>
    ${typeof schema.description === 'string' ? html`<p>${prose(schema.description)}</p>` : ''}
    ${
      isObject(schema.properties)
        ? tableOf(['Property', 'Type', 'Required', 'Description'], propertyRows(schema))
        : html`<p>${typeOf(schema)}</p>`
    }
    <details>
      <summary>${name} as JSON Schema</summary>
      <pre><code>${JSON.stringify(schema, null, 2)}</code></pre>
    </details>
  </section>`;
}

/** One row per property; an inline object's properties follow it with dotted names. */
export function propertyRows(schema: JsonSchema, prefix = ''): Html[] {
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  return Object.entries(schema.properties as Record<string, JsonSchema>).flatMap(([name, prop]) => [
    html`<tr>
      <th scope="row"><code>${prefix}${name}</code></th>
      <td>${typeOf(prop)}</td>
      <td>${required.includes(name) ? 'yes' : 'no'}</td>
      <td>${typeof prop.description === 'string' ? prose(prop.description) : ''}</td>
    </tr>`,
    ...(isObject(prop.properties) ? propertyRows(prop, `${prefix}${name}.`) : []),
  ]);
}

/** A short, readable type: a link for a $ref, "X or null" for anyOf, "array of X", then enum values and limits. */
export function typeOf(schema: JsonSchema): Html {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.startsWith(SCHEMA_REF) ? schema.$ref.slice(SCHEMA_REF.length) : schema.$ref;
    return html`<a href="#${anchorOf('schema', name)}">${name}</a>`;
  }
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(union)) return joinHtml(union.map(typeOf), ' or ');
  const type = Array.isArray(schema.type) ? schema.type.join(' or ') : String(schema.type ?? 'any');
  const base =
    type === 'array' && isObject(schema.items) ? html`array of ${typeOf(schema.items as JsonSchema)}` : html`${type}`;
  const notes: Html[] = [];
  if (Array.isArray(schema.enum))
    notes.push(
      html`one of
      ${joinHtml(
        schema.enum.map((v) => html`<code>${JSON.stringify(v)}</code>`),
        ', ',
      )}`,
    );
  if (schema.pattern !== undefined) notes.push(html`pattern <code>${schema.pattern}</code>`);
  for (const [keyword, label] of LIMITS) {
    const v = schema[keyword];
    if (typeof v === 'number' && Math.abs(v) < Number.MAX_SAFE_INTEGER) notes.push(html`${label} ${v}`);
  }
  if (schema.default !== undefined) notes.push(html`default <code>${JSON.stringify(schema.default)}</code>`);
  return notes.length ? html`${base} (${joinHtml(notes, '; ')})` : base;
}

const LIMITS = [
  ['minimum', '≥'],
  ['exclusiveMinimum', '>'],
  ['maximum', '≤'],
  ['exclusiveMaximum', '<'],
  ['minLength', 'min length'],
  ['maxLength', 'max length'],
] as const;

function joinHtml(parts: Html[], separator: string): Html {
  return new Html(parts.map((p) => p.text).join(esc(separator)));
}

/** Escaped text with `backticks` as <code>: the document's descriptions use no other Markdown. */
export function prose(text: string): Html {
  return new Html(esc(text).replace(/`([^`]+)`/g, '<code>$1</code>'));
}

/** An id attribute value: letters, digits and dashes only, so it needs no escaping in href="#...". */
export function anchorOf(kind: string, name: string): string {
  return `${kind}-${name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A table with a header row of column names (scope="col") and the given body rows. */
export function tableOf(columns: string[], rows: Html[]): Html {
  return html`<table>
    <thead>
      <tr>${columns.map((c) => html`<th scope="col">${c}</th>`)}</tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}
