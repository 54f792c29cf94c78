// The widget's css`` text as the build ships it: Lit ships it as written, so comments and indentation would cost every
// page that loads the widget; only whitespace that CSS ignores is dropped (strings are left as they are).

/**
 * CSS text without comments, with runs of whitespace made one space, none around `{`, `}`, `;`, `,`, `>` and `/` nor
 * after `:` (a selector's pseudo-class never follows a space after a colon), no `;` closing a block, and no 0 before a
 * decimal point (`.5rem`, `-.125em`).
 */
export function minifyCss(text: string): string {
  return text
    .replace(/('[^']*'|"[^"]*")|\/\*[\s\S]*?\*\//g, (_comment, string?: string) => string ?? '')
    .split(/('[^']*'|"[^"]*")/)
    .map((piece, i) =>
      i % 2
        ? piece
        : piece
            .replace(/\s+/g, ' ')
            .replace(/ ?([{};,>/]) ?/g, '$1')
            .replace(/: /g, ':')
            .replace(/;}/g, '}')
            .replace(/([ :(,]-?)0\.(\d)/g, '$1.$2'),
    )
    .join('')
    .trim();
}
