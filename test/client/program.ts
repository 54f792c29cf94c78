// A partner's program against the API, typed by a client generated from /openapi.json (openapi-typescript +
// openapi-fetch): it must type-check and run, 304 included. BASE and KEY come from the environment.
import createClient from 'openapi-fetch';
import type { paths } from './generated/api.ts';

const client = createClient<paths>({ baseUrl: process.env.BASE, headers: { 'X-API-Key': process.env.KEY } });

const list = await client.GET('/external/listings', { params: { query: { sort: 'price', available: 'true' } } });
if (!list.data) throw new Error(`list: HTTP ${list.response.status}`);
const first = list.data.listings[0];
if (!first) throw new Error('list: no listings');
const detail = await client.GET('/external/listings/{id}', { params: { path: { id: first.id } } });
if (!detail.data) throw new Error(`detail: HTTP ${detail.response.status}`);
const etag = detail.response.headers.get('etag') ?? '';
const again = await client.GET('/external/listings/{id}', {
  params: { path: { id: first.id }, header: { 'If-None-Match': etag } },
});
const missing = await client.GET('/external/listings/{id}', { params: { path: { id: 'lst_nope' } } });

const answer: {
  listings: number;
  first: string;
  gross: number;
  currency: string;
  revalidated: number;
  notFound: string | undefined;
} = {
  listings: list.data.listings.length,
  first: detail.data.code,
  gross: detail.data.price.gross,
  currency: detail.data.deposit.currency,
  revalidated: again.response.status,
  notFound: missing.error?.code,
};
process.stdout.write(`${JSON.stringify(answer)}\n`);
