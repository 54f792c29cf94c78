// The comparison site's front end: calls the API once per facility (each with its own key) and ranks units by price per m².
const table = document.getElementById('compare');
const base = table.dataset.apiBase;
const keys = table.dataset.keys.split(',').map((pair) => pair.split('='));

function money(minor, currency) {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  return new Intl.NumberFormat('en', { style: 'currency', currency }).format(minor / 10 ** digits);
}

function cell(text) {
  const td = document.createElement('td');
  td.textContent = text;
  return td;
}

async function load() {
  const answers = await Promise.all(
    keys.map(async ([, key]) => {
      const res = await fetch(`${base}/external/listings`, { headers: { 'X-API-Key': key } });
      if (!res.ok) throw new Error(`API answered ${res.status}`);
      return res.json();
    }),
  );
  const rows = answers.flatMap((a) => a.listings.map((l) => ({ facility: a.facility.name, ...l, perM2: l.price.gross / l.area_m2 })));
  rows.sort((a, b) => a.price.currency.localeCompare(b.price.currency) || a.perM2 - b.perM2);
  const body = table.tBodies[0];
  body.replaceChildren(
    ...rows.map((r) => {
      const tr = document.createElement('tr');
      tr.dataset.listingId = r.id;
      if (r.free_units === 0) tr.className = 'sold-out';
      const link = document.createElement('a');
      link.href = r.rent_url;
      link.textContent = r.free_units === 0 ? 'Details' : 'Rent';
      const action = document.createElement('td');
      action.append(link);
      tr.append(cell(r.facility), cell(`${r.title} (${r.code})`), cell(`${r.area_m2} m²`), cell(money(r.price.gross, r.price.currency)), cell(money(Math.round(r.perM2), r.price.currency)), cell(r.free_units === 0 ? 'sold out' : String(r.free_units)), action);
      return tr;
    }),
  );
}

load().catch((err) => {
  table.tBodies[0].replaceChildren(Object.assign(document.createElement('tr'), { textContent: `Could not load listings: ${err.message}` }));
});
