// StoreCompare's front end: one API call per facility (each with its own key), units ranked within a currency by what
// their first three months cost a new tenant, promotions and move-in costs included.
/* global FormData */
import { firstPeriodsCost } from './first-months.js';

const root = document.getElementById('compare');
const table = document.getElementById('results');
const form = document.getElementById('filters');
const statusLine = document.getElementById('status');
const notices = document.getElementById('notices');
const facilityOptions = document.getElementById('facility-options');

const base = root.dataset.apiBase;
// "wro-1=svc_live_...,ber-1=..."; a placeholder left unfilled means the demo has no such facility.
const keys = root.dataset.keys
  .split(',')
  .map((pair) => pair.split('='))
  .filter(([id, key]) => id && key && !key.startsWith('{{'));

const state = { rows: [], facilities: [], sort: { key: 'first', dir: 1 } };

const formatters = new Map();
function money(minor, currency) {
  let f = formatters.get(currency);
  if (!f) {
    f = new Intl.NumberFormat('en-GB', { style: 'currency', currency });
    formatters.set(currency, f);
  }
  return f.format(minor / 10 ** f.resolvedOptions().maximumFractionDigits);
}
const area = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 2 });

function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

function safeHref(url) {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

/** One facility's list, or an Error whose message is the API's problem code. */
async function loadFacility(facilityId, key) {
  const res = await fetch(`${base}/external/listings`, { headers: { 'X-API-Key': key }, cache: 'no-cache' });
  if (!res.ok) {
    const problem = await res.json().catch(() => ({}));
    throw new Error(`${facilityId}: ${res.status} ${problem.code ?? 'error'}`);
  }
  return res.json();
}

function rowsOf(answer) {
  return answer.listings.map((l) => ({
    id: l.id,
    facilityId: answer.facility.id,
    facility: answer.facility.name,
    code: l.code,
    title: l.title,
    area: l.area_m2,
    gross: l.price.gross,
    currency: l.price.currency,
    period: l.price.period,
    first: firstPeriodsCost(l),
    promotion: l.promotions[0]?.title ?? null,
    free: l.free_units,
    rentUrl: safeHref(l.rent_url),
  }));
}

const COMPARE = {
  facility: (a, b) => a.facility.localeCompare(b.facility),
  unit: (a, b) => a.code.localeCompare(b.code, 'en', { numeric: true }),
  area: (a, b) => a.area - b.area,
  price: (a, b) => a.gross - b.gross,
  first: (a, b) => a.first - b.first,
  free: (a, b) => a.free - b.free,
};

function visibleRows() {
  const data = new FormData(form);
  const facilities = new Set(data.getAll('facility'));
  const minArea = Number(data.get('minArea') ?? 0);
  const availableOnly = data.get('available') === 'on';
  const { key, dir } = state.sort;
  return state.rows
    .filter((r) => facilities.has(r.facilityId) && r.area >= minArea && (!availableOnly || r.free > 0))
    .sort((a, b) => dir * COMPARE[key](a, b) || COMPARE.first(a, b) || COMPARE.unit(a, b));
}

function freeCell(free) {
  const [text, cls] =
    free === 0 ? ['Sold out', 'sold-out'] : free === 1 ? ['Last unit', 'low'] : [`${free} free`, 'ok'];
  return el('td', {}, el('span', { className: `pill ${cls}`, textContent: text }));
}

function rowOf(r, best) {
  const tr = el('tr', { className: r.free === 0 ? 'sold-out' : '' });
  tr.dataset.listingId = r.id;
  tr.dataset.facility = r.facilityId;
  tr.dataset.first = String(r.first);
  const title = r.rentUrl
    ? el('a', { className: 'title', href: r.rentUrl, textContent: r.title })
    : el('span', { className: 'title', textContent: r.title });
  const unit = el('td', {}, title, el('span', { className: 'code', textContent: r.code }));
  const first = el('td', { className: 'num first' }, el('b', { textContent: money(r.first, r.currency) }));
  if (r.promotion) first.append(el('span', { className: 'promo', textContent: r.promotion }));
  if (best) first.append(el('span', { className: 'best', textContent: 'Best value' }));
  const period = r.period === 'P1M' ? '' : ` / ${r.period}`;
  const action = el('td', { className: 'action' });
  if (r.rentUrl)
    action.append(
      el('a', {
        href: r.rentUrl,
        className: r.free === 0 ? 'link' : 'button',
        textContent: r.free === 0 ? 'Details' : 'Rent →',
      }),
    );
  tr.append(
    el('td', { className: 'facility', textContent: r.facility }),
    unit,
    el('td', { className: 'num area', textContent: `${area.format(r.area)} m²` }),
    el('td', { className: 'num price', textContent: money(r.gross, r.currency) + period }),
    first,
    freeCell(r.free),
    action,
  );
  return tr;
}

function render() {
  const rows = visibleRows();
  const currencies = [...new Set(rows.map((r) => r.currency))].sort();
  const groups = currencies.map((currency) => {
    const inGroup = rows.filter((r) => r.currency === currency);
    const cheapest = inGroup
      .filter((r) => r.free > 0)
      .reduce((min, r) => (!min || r.first < min.first ? r : min), null);
    const names = [...new Set(inGroup.map((r) => r.facility))].join(' · ');
    const header = el(
      'tr',
      { className: 'group' },
      el('th', { colSpan: 7, scope: 'rowgroup' }, `Prices in ${currency}`, el('span', { textContent: names })),
    );
    const body = el('tbody', {}, header, ...inGroup.map((r) => rowOf(r, r === cheapest)));
    body.dataset.currency = currency;
    return body;
  });
  for (const old of [...table.tBodies]) old.remove();
  if (groups.length === 0)
    groups.push(
      el(
        'tbody',
        {},
        el('tr', {}, el('td', { colSpan: 7, className: 'empty', textContent: 'No units match these filters.' })),
      ),
    );
  table.append(...groups);
  for (const th of table.tHead.querySelectorAll('th[data-sort]')) {
    if (th.dataset.sort === state.sort.key)
      th.setAttribute('aria-sort', state.sort.dir > 0 ? 'ascending' : 'descending');
    else th.removeAttribute('aria-sort');
  }
  const time = new Date().toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  statusLine.textContent = `Showing ${rows.length} of ${state.rows.length} units from ${state.facilities.length} facilities · live prices at ${time}`;
}

function renderFacilityOptions() {
  facilityOptions.replaceChildren(
    ...state.facilities.map((f) =>
      el(
        'label',
        { className: 'chip' },
        el('input', { type: 'checkbox', name: 'facility', value: f.id, checked: true }),
        ` ${f.name} `,
        el('span', { className: 'count', textContent: String(f.count) }),
        f.changed ? el('span', { className: 'muted', textContent: ` changed ${f.changed}` }) : null,
      ),
    ),
  );
}

/** When each facility's content last changed, from the demo's published index (snapshots/index.json); {} without one. */
async function lastChanged() {
  try {
    const index = await (await fetch('snapshots/index.json', { cache: 'no-cache' })).json();
    const when = (iso) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'short', timeStyle: 'short' });
    return Object.fromEntries(index.facilities.map((f) => [f.id, when(f.updated_at)]));
  } catch {
    return {};
  }
}

async function load() {
  const [results, changed] = await Promise.all([
    Promise.allSettled(keys.map(([id, key]) => loadFacility(id, key))),
    lastChanged(),
  ]);
  const answers = results.filter((r) => r.status === 'fulfilled').map((r) => r.value);
  notices.replaceChildren(
    ...results
      .filter((r) => r.status === 'rejected')
      .map((r) => el('li', { textContent: `Could not load ${r.reason.message}` })),
  );
  state.rows = answers.flatMap(rowsOf);
  state.facilities = answers.map((a) => ({
    id: a.facility.id,
    name: a.facility.name,
    count: a.listings.length,
    changed: changed[a.facility.id],
  }));
  renderFacilityOptions();
  render();
}

form.addEventListener('change', render);
form.addEventListener('submit', (e) => e.preventDefault());
table.tHead.addEventListener('click', (e) => {
  const th = e.target.closest('th[data-sort]');
  if (!th) return;
  const key = th.dataset.sort;
  state.sort = { key, dir: state.sort.key === key ? -state.sort.dir : 1 };
  render();
});

load().catch((err) => {
  statusLine.textContent = `Could not load listings: ${err.message}`;
});
