// The obvious peer: Fastify 5 over better-sqlite3, querying and serialising on every request (no answer cache), with
// the store's own key check (SHA-256 of the key, looked up by digest). It filters and sorts the list in JavaScript and
// renders a rental page from one listing's rows. As a plain Fastify app it sends no ETag (If-None-Match gets a 200) and
// compresses nothing. Only the bench runs it, compiled to dist/bench/ by compileBenchServers():
// `node dist/bench/peer-fastify.mjs DB_FILE PORT`; prints "peer at URL " on stderr.
import Fastify from 'fastify';
import { detailOf, facilityInfoOf, summaryOf } from '../server/domain/views.ts';
import { facilityData, revisedListing } from '../server/store/facilities.ts';
import { listingIdOf, type FacilityData } from '../server/domain/facility.ts';
import { formatArea, formatMoney } from '../shared/format.ts';
import { isSortKey, sortListings } from '../shared/sort.ts';
import { html, page } from '../server/http/pages/html.ts';
import { openDb } from '../server/store/db.ts';
import { verifyKey } from '../server/store/keys.ts';

const [file, port] = process.argv.slice(2);
const db = openDb(file!, { migrate: false });
// A detail reads its own listing, not the whole facility: what a straightforward server would query.
const codeOf = db.prepare('SELECT code FROM listings WHERE id = ? AND facility_id = ?');
const publicUrl = `http://127.0.0.1:${port}`;
const app = Fastify({ logger: false });

/** The key's facility, or undefined for a missing, unknown or revoked key. */
function facilityOf(key: unknown): string | undefined {
  const v = typeof key === 'string' ? verifyKey(db, key, 'svc') : undefined;
  return v?.ok ? v.key.facility_id : undefined;
}

/** The facility with one of its listings (the store's own query and row mapping), or undefined. */
function listingData(facilityId: string, id: string): FacilityData | undefined {
  const row = codeOf.get(id, facilityId) as { code: string } | undefined;
  return row && revisedListing(db, facilityId, row.code)?.data;
}

type ListQuery = { available?: string; min_area?: string; max_area?: string; sort?: string };
const AREA = /^\d{1,7}(\.\d{1,4})?$/;

app.get<{ Querystring: ListQuery }>('/external/listings', (req, reply) => {
  const facilityId = facilityOf(req.headers['x-api-key']);
  if (!facilityId) return reply.code(401).send({ code: 'invalid_api_key' });
  const { available, min_area: min, max_area: max, sort } = req.query;
  if ((min !== undefined && !AREA.test(min)) || (max !== undefined && !AREA.test(max)))
    return reply.code(400).send({ code: 'invalid_parameter' });
  if (sort !== undefined && !isSortKey(sort)) return reply.code(400).send({ code: 'invalid_parameter' });
  const data = facilityData(db, facilityId);
  if (!data) return reply.code(404).send({ code: 'not_found' });
  let listings = data.listings.map((l) => summaryOf(l, data, publicUrl, Date.now()));
  if (available === 'true' || min !== undefined || max !== undefined)
    listings = listings.filter(
      (l) =>
        (available !== 'true' || l.free_units > 0) &&
        (min === undefined || l.area_m2 >= Number(min)) &&
        (max === undefined || l.area_m2 <= Number(max)),
    );
  if (sort !== undefined && isSortKey(sort)) listings = sortListings(listings, sort);
  return { facility: facilityInfoOf(data.facility), listings };
});

app.get<{ Params: { id: string } }>('/external/listings/:id', (req, reply) => {
  const facilityId = facilityOf(req.headers['x-api-key']);
  if (!facilityId) return reply.code(401).send({ code: 'invalid_api_key' });
  const data = listingData(facilityId, req.params.id);
  if (!data) return reply.code(404).send({ code: 'not_found' });
  return detailOf(data.listings[0]!, data, publicUrl, Date.now());
});

// The rental page: the listing's own rows, priced, as a short HTML page.
app.get<{ Params: { facility: string; code: string } }>('/rent/:facility/:code', (req, reply) => {
  const data = listingData(req.params.facility, listingIdOf(req.params.facility, req.params.code));
  const d = data && detailOf(data.listings[0]!, data, publicUrl, Date.now());
  reply.type('text/html; charset=utf-8');
  if (!data || !d) return reply.code(404).send(page('Unit not found', html`<main><h1>Unit not found</h1></main>`));
  return page(
    `${d.title} · ${data.facility.name}`,
    html`<main>
<p>${data.facility.name}</p>
<h1>${d.title}</h1>
<p>${formatMoney(d.price.gross, d.price.currency)} per month, ${d.free_units} free</p>
<p>${formatArea(d.area_m2)}</p>
<p>${d.description}</p>
${d.photos.map((p) => html`<figure><img src="${p.url}" alt="${p.caption}"><figcaption>${p.caption}</figcaption></figure>`)}
</main>`,
  );
});

await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stderr.write(`peer at ${publicUrl} \n`);
process.on('SIGTERM', () => void app.close().then(() => db.close()));
