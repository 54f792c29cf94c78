// Escaping for server-rendered HTML: every piece of data goes through esc().
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function esc(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** A template tag that escapes every interpolated value unless it is already Html. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  values.forEach((v, i) => {
    const part = Array.isArray(v)
      ? v.map((x) => (x instanceof Html ? x.text : esc(x))).join('')
      : v instanceof Html
        ? v.text
        : v === null || v === undefined || v === false
          ? ''
          : esc(v);
    out += part + strings[i + 1]!;
  });
  return new Html(out);
}

/** JSON inside <script type="application/ld+json">: "<" escaped so data can never close the script element. */
export function jsonForScript(value: unknown): Html {
  return new Html(
    JSON.stringify(value)
      .replace(/</g, '\\u003c')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  );
}

export const HTML_SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' https: http: data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
} as const;

/** What search results and link previews show when a page gives no description of its own. */
export const DEFAULT_DESCRIPTION = 'Live self-storage prices, free units and photos for partner sites.';

/** A page's head: one in a language other than the default English describes itself in that language. */
export type PageOptions = { head?: Html } & (
  { lang?: undefined; description?: string } | { lang: string; description: string }
);

export function page(title: string, body: Html, opts: PageOptions = {}): string {
  return html`<!doctype html>
<html lang="${opts.lang ?? 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="${opts.description ?? DEFAULT_DESCRIPTION}">
<link rel="icon" href="/assets/favicon.svg">
<link rel="stylesheet" href="/assets/site.css">
${opts.head ?? ''}
</head>
<body>
${body}
</body>
</html>
`.text;
}

/**
 * A translated template as Html: its text escaped, each `{name}` replaced by that value (escaped unless it is Html);
 * `{Name}` gives the value with a capital first letter. A name without a value stays as written.
 */
export function fill(template: string, values: Record<string, unknown>): Html {
  return new Html(
    esc(template).replace(/\{(\w+)\}/g, (whole, name: string) => {
      const key = name.charAt(0).toLowerCase() + name.slice(1);
      if (!Object.hasOwn(values, key)) return whole;
      const value = values[key];
      const text = value instanceof Html ? value.text : esc(value);
      return name === key ? text : text.charAt(0).toUpperCase() + text.slice(1);
    }),
  );
}
