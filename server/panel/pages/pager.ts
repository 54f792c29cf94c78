// Long lists a page at a time: the page asked for (from the query), where it starts, and links to its neighbours.
import { html, type Html } from '../../http/pages/html.ts';
import type { Texts } from '../i18n/i18n.ts';

/** Rows on a page of the facilities list and of a Listings tab. */
export const PAGE_SIZE = 50;

/** The `page` parameter: a whole number from 1; anything else is the first page. */
export function pageNumberOf(params: URLSearchParams): number {
  const page = Number(params.get('page'));
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

export const offsetOf = (page: number): number => (page - 1) * PAGE_SIZE;

export const pageCount = (total: number): number => Math.max(1, Math.ceil(total / PAGE_SIZE));

/**
 * A page of rows read with their total, which rides on the rows (`count(*) OVER ()`): a page past the end has none, so
 * one row from the start is read for it, and the pager can say how many pages there are.
 */
export async function readPage<R>(
  page: number,
  read: (limit: number, offset: number) => Promise<{ total: number; rows: R[] }>,
): Promise<{ total: number; rows: R[] }> {
  const shown = await read(PAGE_SIZE, offsetOf(page));
  if (shown.rows.length > 0 || page === 1) return shown;
  return { total: (await read(1, 0)).total, rows: shown.rows };
}

/**
 * The links to the previous and next page, each to the list's own URL with `page` set; nothing for one page. A page past
 * the end (an old link to a list that shrank) says so, and its previous link goes to the last page.
 */
export function pager({ t }: Texts, page: number, total: number, hrefOf: (page: number) => string): Html | '' {
  const pages = pageCount(total);
  if (pages === 1 && page === 1) return '';
  const link = (to: number, label: string, rel: string) =>
    to >= 1 && to <= pages ? html`<a href="${hrefOf(to)}" rel="${rel}">${label}</a>` : html`<span>${label}</span>`;
  return html`<nav class="pager" aria-label="${t.pages}">
${link(Math.min(page - 1, pages), t.previous, 'prev')} <span aria-current="page">${page <= pages ? t.pageOf(page, pages) : t.pastLastPage(pages)}</span> ${link(page + 1, t.next, 'next')}
</nav>`;
}

/** A list's URL: its query parameters with `page` set (the first page has none). */
export function withPage(params: Record<string, string | undefined>, page: number): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return text ? `?${text}` : '';
}
