// <panel-listings>: the Listings tab's table sorted by column and filtered by area in the browser, redrawn by Lit with
// the code the server rendered it with (shared/panel-listings.ts, on the widget's shared/format, pricing and sort).
import { html, LitElement, nothing, render } from 'lit';
import { property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import {
  ariaSortOf,
  countText,
  filterQuery,
  nextSort,
  readListingFilter,
  rowOf,
  shownListings,
  SORT_COLUMNS,
  type ListingFilter,
  type PanelListing,
  type PanelListings as Data,
  type SortColumn,
} from '../../shared/panel-listings.ts';

/**
 * Wraps the server's filter form (`min_area`, `max_area`, a hidden `sort`), its count status, its table with sort
 * links (`a[data-sort]` in the headers) and a JSON data block of the listings. The form and links keep working without
 * JavaScript (the server sorts and filters the same way); here they apply at once, and the URL follows. A facility of
 * more listings than one page has no data block: the server pages, sorts and filters it, and this element stays aside.
 */
export class PanelListings extends LitElement {
  /** Text of the badge of a dynamic price, before its adjustment (`dynamic +10%`). */
  @property({ attribute: 'dynamic-label' }) dynamicLabel = '';
  /** The count status, with `{shown}` and `{total}`. */
  @property({ attribute: 'count-label' }) countLabel = '';
  /** The table's one row when no listing matches. */
  @property({ attribute: 'none-label' }) noneLabel = '';
  /** The badge of an inactive listing. */
  @property({ attribute: 'inactive-label' }) inactiveLabel = '';
  /** Put before the move-in total. */
  @property({ attribute: 'move-in-label' }) moveInLabel = '';
  /** The terms cell of an inactive listing, whose terms partners do not see. */
  @property({ attribute: 'not-shown-label' }) notShownLabel = '';
  @state() protected filter: ListingFilter = readListingFilter(new URLSearchParams(location.search));
  private data: Data | undefined;
  /** Whether Lit has drawn the rows yet (until then the tbody holds the server's). */
  private drawn = false;

  constructor() {
    super();
    this.addEventListener('input', () => this.filterChanged());
    this.addEventListener('change', () => this.filterChanged());
    this.addEventListener('submit', (event) => {
      // Without a data block (a facility of several pages) the server filters: the form goes as it is.
      if (!this.data) return;
      event.preventDefault();
      this.filterChanged();
    });
    this.addEventListener('click', (event) => this.sortClicked(event));
  }

  override connectedCallback(): void {
    super.connectedCallback();
    try {
      this.data = JSON.parse(this.querySelector('script[type="application/json"]')?.textContent ?? '') as Data;
    } catch {
      this.data = undefined; // no data block: the server's table stays as it is
    }
  }

  // Light DOM: the form, table and status are the server's; this element redraws the rows and keeps them in step.
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override render() {
    return nothing;
  }

  private form(): HTMLFormElement | null {
    return this.querySelector('form');
  }

  private filterChanged(): void {
    const form = this.form();
    if (!form || !this.data) return;
    const params = new URLSearchParams();
    for (const name of ['min_area', 'max_area', 'state'])
      params.set(name, (form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | null)?.value ?? '');
    this.filter = { ...readListingFilter(params), sort: this.filter.sort };
  }

  private sortClicked(event: MouseEvent): void {
    const link = (event.target as Element).closest<HTMLAnchorElement>('a[data-sort]');
    const column = link?.dataset.sort;
    if (!this.data || !column || !Object.hasOwn(SORT_COLUMNS, column)) return;
    event.preventDefault();
    this.filter = { ...this.filter, sort: nextSort(this.filter.sort, column as SortColumn) };
  }

  protected override updated(): void {
    const tbody = this.querySelector('tbody');
    if (!this.data || !tbody) return;
    const shown = shownListings(this.data.listings, this.filter);
    // The server's rows go once, replaced by the same rows drawn by Lit (the URL's filter is the server's).
    if (!this.drawn) tbody.replaceChildren();
    this.drawn = true;
    render(this.rows(shown), tbody);
    const count = this.querySelector('.count');
    if (count) count.textContent = countText(this.countLabel, shown.length, this.data.listings.length);
    for (const link of this.querySelectorAll<HTMLAnchorElement>('a[data-sort]')) {
      const column = link.dataset.sort as SortColumn;
      const sort = ariaSortOf(this.filter.sort, column);
      link.closest('th')?.toggleAttribute('aria-sort', sort !== undefined);
      if (sort) link.closest('th')?.setAttribute('aria-sort', sort);
      link.href = filterQuery({ ...this.filter, sort: nextSort(this.filter.sort, column) });
    }
    const sortField = this.form()?.elements.namedItem('sort') as HTMLInputElement | null;
    if (sortField) sortField.value = this.filter.sort ?? '';
    history.replaceState(history.state, '', `${location.pathname}${filterQuery(this.filter)}`);
  }

  private rows(shown: PanelListing[]) {
    if (shown.length === 0) return html`<tr><td colspan="7">${this.noneLabel}</td></tr>`;
    const lang = document.documentElement.lang || 'en';
    const rules = this.data?.pricing_rules ?? [];
    return repeat(
      shown,
      (l) => l.id,
      (l) => {
        const row = rowOf(l, rules, lang);
        const badge =
          row.adjust === null ? nothing : html` <span class="badge">${this.dynamicLabel} ${row.adjust}</span>`;
        const inactive = l.active ? nothing : html` <span class="badge off">${this.inactiveLabel}</span>`;
        return html`<tr class=${l.active ? '' : 'inactive'}>
          <th scope="row">${l.code}${inactive}</th>
          <td>${l.title}</td>
          <td>${row.area}</td>
          <td>${row.gross}${badge}</td>
          <td>${row.net}</td>
          <td>${l.free_units}</td>
          <td>${this.terms(row)}</td>
        </tr>`;
      },
    );
  }

  /** The same cell as the server's termsCell (server/panel/pages/listings.ts). */
  private terms(row: ReturnType<typeof rowOf>) {
    if (row.moveIn === null) return html`<span class="muted">${this.notShownLabel}</span>`;
    return html`<ul class="terms">
      ${row.promotions.map((p) => html`<li><span class="badge">${p}</span></li>`)}
      ${row.features.length ? html`<li>${row.features.join(', ')}</li>` : nothing}
      <li>${this.moveInLabel} ${row.moveIn}</li>
    </ul>`;
  }
}
