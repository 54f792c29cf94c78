// The attribute table of docs/widget.md, written from the manifest between two markers.
import type { Element } from './manifest.ts';
import { DOCS } from './source.ts';

const DOCS_START = '<!-- attributes:start -->';
const DOCS_END = '<!-- attributes:end -->';

/** A JavaScript literal (a default the code sets), rather than words (a `@default` that says what happens). */
const isLiteral = (text: string) => /^(true|false|-?\d+(\.\d+)?|'[^']*'|"[^"]*")$/.test(text);

/** The attribute table of docs/widget.md. */
export function attributeTable(element: Element): string {
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
