// A build step for the widget's css`` templates: Lit ships their text as written, so comments and indentation would
// cost every page that loads the widget; only whitespace that CSS ignores is dropped (strings are left as they are).
import type { Plugin } from 'vite';

/**
 * CSS text without comments, with runs of whitespace made one space, none around `{`, `}`, `;` and `,` nor after `:`
 * (a selector's pseudo-class never follows a space after a colon), no `;` closing a block, and no 0 before a decimal
 * point (`.5rem`).
 */
export function minifyCss(text: string): string {
  return text
    .split(/('[^']*'|"[^"]*")/)
    .map((piece, i) =>
      i % 2
        ? piece
        : piece
            .replace(/\/\*[\s\S]*?\*\//g, '')
            .replace(/\s+/g, ' ')
            .replace(/ ?([{};,]) ?/g, '$1')
            .replace(/: /g, ':')
            .replace(/;}/g, '}')
            .replace(/([ :(,])0\.(\d)/g, '$1.$2'),
    )
    .join('')
    .trim();
}

/** Minifies every css`` template without substitutions in the widget's `*.styles.ts` files. */
export function cssMinify(): Plugin {
  return {
    name: 'storage-listings:css-minify',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!id.endsWith('.styles.ts')) return null;
      return { code: code.replace(/css`([^`$]*)`/g, (_, text: string) => `css\`${minifyCss(text)}\``), map: null };
    },
  };
}
