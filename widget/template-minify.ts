// A build step for the widget's Lit templates, whose text Lit ships as written: html`` loses its indentation, and a
// css`` without substitutions what CSS ignores (css-minify.ts), so the source stays readable and the bundle small.
import { parseSync, Visitor, type ESTree, type Plugin } from 'vite';
import { minifyCss } from './css-minify.ts';

/** Template text with each run of whitespace that holds a line break made one space, which HTML renders alike. */
export function minifyHtml(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}

/** The name a static stylesheet is made with in the built code (imported from Lit under it). */
const UNSAFE_CSS = '__unsafeCSS';

/**
 * The code with the static text of its html`` templates minified, and each css`` without substitutions made by Lit's
 * unsafeCSS from its minified text: the same CSSResult, without the css tag's code, which only checks substitutions.
 */
export function minifyTemplates(code: string, file: string): string {
  const edits: { start: number; end: number; text: string }[] = [];
  new Visitor({
    TaggedTemplateExpression(node: ESTree.TaggedTemplateExpression) {
      const tag = node.tag.type === 'Identifier' ? node.tag.name : '';
      const { quasis } = node.quasi;
      if (tag === 'css' && quasis.length === 1) {
        const text = JSON.stringify(minifyCss(quasis[0]!.value.cooked ?? quasis[0]!.value.raw));
        edits.push({ start: node.start, end: node.end, text: `${UNSAFE_CSS}(${text})` });
      } else if (tag === 'html') {
        // A quasi spans its delimiters: the opening ` or }, and the closing ` or ${.
        for (const q of quasis)
          edits.push({ start: q.start + 1, end: q.end - (q.tail ? 1 : 2), text: minifyHtml(q.value.raw) });
      }
    },
  }).visit(parseSync(file, code).program);
  let out = code;
  for (const { start, end, text } of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, start) + text + out.slice(end);
  }
  return out.includes(`${UNSAFE_CSS}(`) ? `import { unsafeCSS as ${UNSAFE_CSS} } from 'lit';\n${out}` : out;
}

/** Minifies the templates of the widget's own TypeScript files as they are built. */
export function templateMinify(): Plugin {
  return {
    name: 'storage-listings:template-minify',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('.ts') || id.includes('/node_modules/')) return null;
      return { code: minifyTemplates(code, id), map: null };
    },
  };
}
