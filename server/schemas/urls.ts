// URLs in the import file: photo URLs, and the operator's link templates, checked as the links they become.
import { z } from 'zod';
import { singleLine } from './text.ts';

/** Browsers and CDNs handle URLs up to about 2 KB; photo URLs and link templates alike. */
export const MAX_URL_LENGTH = 2048;

/**
 * Characters a URL never holds as they are (the parser would percent-encode them); served as written, they could end
 * an HTML attribute or tag.
 */
const NOT_IN_URLS = /[ "<>\\^`{|}]/;

/**
 * A photo's address: an http(s) URL of bounded length on one line, kept as the URL parser writes it, so that what a URL
 * holds only percent-encoded (a space, a quote, `<`, `>`) is percent-encoded: partners put it in `<img src>` as the API
 * gives it.
 */
export const httpUrl = () =>
  singleLine().pipe(
    z
      .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
      .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
      .transform((url) => new URL(url).href)
      .pipe(z.string().max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters once percent-encoded`)),
  );

/**
 * `{facility}` and `{code}` are filled in every listing's link, so each may appear at most twice (a path and a query
 * parameter): a filled link then stays within 2048 + 2 * 54 + 2 * 58 characters, however the template is written.
 */
const MAX_PLACEHOLDER_USES = 2;
const PLACEHOLDERS = ['{facility}', '{code}'] as const;

/** Values like the ones filled in, so that the template is checked as the link a listing gets. */
const SAMPLE = { '{facility}': 'sample-facility', '{code}': 'A-1' } as const;

const PLACEHOLDER_LIKE = /\{[^{}]*\}/;

/** Served as a link as written, so it must be one: `https://`, a host, and nothing the parser would rewrite. */
function linkProblem(template: string): string | undefined {
  let link = template;
  for (const placeholder of PLACEHOLDERS) link = link.replaceAll(placeholder, SAMPLE[placeholder]);
  const unknown = PLACEHOLDER_LIKE.exec(link);
  if (unknown) return `holds ${unknown[0]}, which is not a placeholder: only {facility} and {code} are filled in`;
  const odd = NOT_IN_URLS.exec(link);
  if (odd) return `must not hold '${odd[0]}' outside {facility} and {code} (a URL holds it percent-encoded)`;
  const url = /^https:\/\/[^/]/.test(link) ? URL.parse(link) : null;
  if (url === null || url.hostname === '')
    return 'must be an https URL with a host, once {facility} and {code} are filled in';
  return undefined;
}

/**
 * An operator's link template: an https URL of bounded length, on one line, whose placeholders are used a bounded
 * number of times; `needsCode` for a link that must differ from one listing to the next.
 */
export function urlTemplate(needsCode: boolean) {
  return singleLine()
    .max(MAX_URL_LENGTH, `must be at most ${MAX_URL_LENGTH} characters`)
    .superRefine((template, ctx) => {
      if (needsCode && !template.includes('{code}'))
        ctx.addIssue({ code: 'custom', message: 'must be an https URL template containing {code}' });
      for (const placeholder of PLACEHOLDERS) {
        const uses = template.split(placeholder).length - 1;
        if (uses > MAX_PLACEHOLDER_USES)
          ctx.addIssue({
            code: 'custom',
            message: `must hold ${placeholder} at most ${MAX_PLACEHOLDER_USES} times (holds ${uses})`,
          });
      }
      const problem = linkProblem(template);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
    });
}
