// The widget in the system Chromium and WebKit, reading signed snapshots straight from an S3 bucket's URLs (CORS, another
// origin): it verifies what `snapshot publish` wrote, still verifies in the middle of a publish, and refuses a tampered
// pointer. Each check looks at the bucket in both engines.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunksIn } from '../../tools/browser-bundle.ts';
import { launchChromium, launchWebKit, type WebKit } from '../../tools/launch.ts';
import { parseImport } from '../../server/domain/import.ts';
import { openDb } from '../../server/store/db.ts';
import { applyImport } from '../../server/store/facilities.ts';
import { cliAsync, demoDb, demoJson, REPO, tempDir } from '../helpers/fixture.ts';
import { fetchObject, snapshotKeyFile } from '../helpers/published.ts';
import { s3Client, startS3, type S3Server } from '../helpers/s3-server.ts';

const PREFIX = 'cdn';
let s3: S3Server;
let page: Server;
let pageUrl: string;
let browser: Browser;
let webkit: WebKit;
let dir: string;
let cleanup: () => void;
let dbFile: string;
let keyFile: string;

const publish = () =>
  cliAsync(
    [
      'snapshot',
      'publish',
      '--db',
      dbFile,
      '--to',
      `s3://${s3.bucket}/${PREFIX}`,
      '--endpoint',
      s3.endpoint,
      '--path-style',
      '--signing-key',
      keyFile,
    ],
    { env: s3.env },
  );

/** Overwrites one object in the bucket, as a tamperer or a publish caught half-way would leave it. */
async function put(key: string, body: Buffer) {
  const client = s3Client(s3.endpoint);
  await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body, ContentType: 'application/json' }));
  client.destroy();
}

type Outcome = { ids: string[]; prices: string[] } | { error: string };

/**
 * The page's `outcome` as JSON text (both drivers wait for the promise): WebKit's WebDriver would report a result object
 * with an `error` member as a failed command.
 */
const outcomeOf = async () => JSON.stringify(await (window as unknown as { outcome: Promise<Outcome> }).outcome);

/**
 * The widget on a page of its own origin, pointed at the bucket: the cards' ids and prices, or the error, in Chromium
 * (a fresh context) and in WebKit (whose automation session keeps no HTTP cache), which must agree.
 */
async function widgetShows(facility: string): Promise<Outcome> {
  const src = encodeURIComponent(s3.objectUrl(`${PREFIX}/${facility}/listings.json`));
  const keys = encodeURIComponent(s3.objectUrl(`${PREFIX}/keys.json`));
  const url = `${pageUrl}/?src=${src}&keys=${keys}`;
  const context = await browser.createBrowserContext();
  let chromium: Outcome;
  try {
    const tab = await context.newPage();
    await tab.goto(url);
    chromium = JSON.parse(await tab.evaluate(outcomeOf)) as Outcome;
  } finally {
    await context.close();
  }
  await webkit.browser.url(url);
  expect(JSON.parse(await webkit.browser.execute(outcomeOf)), 'WebKit shows what Chromium shows').toEqual(chromium);
  return chromium;
}

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bucket</title>
<script type="module" src="/storage-listings.js"></script></head><body><script type="module">
const q = new URLSearchParams(location.search);
const el = document.createElement('storage-listings');
window.outcome = new Promise((resolve) => {
  el.addEventListener('storage-listings-load', () => requestAnimationFrame(() => {
    const cards = [...el.shadowRoot.querySelectorAll('[part~="listing"]')];
    resolve({ ids: cards.map((c) => c.dataset.listingId), prices: cards.map((c) => c.querySelector('[part~="price"]').textContent) });
  }));
  el.addEventListener('storage-listings-error', (e) => resolve({ error: e.detail.code }));
});
el.setAttribute('src', q.get('src'));
el.setAttribute('keys-url', q.get('keys'));
document.body.append(el);
</script></body></html>`;

beforeAll(async () => {
  s3 = await startS3({ cors: true });
  ({ dir, cleanup } = tempDir());
  const { db, file } = demoDb(dir);
  db.close();
  dbFile = file;
  ({ keyFile } = await snapshotKeyFile(join(dir, 'secrets')));
  const widget = join(REPO, 'dist', 'widget');
  const scripts = new Map(
    ['storage-listings.js', ...chunksIn(widget)].map((f) => [`/${f}`, readFileSync(join(widget, f))]),
  );
  page = createServer((req, res) => {
    const script = scripts.get(req.url ?? '');
    if (script) res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    else res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  // Another origin than the bucket's (another port): the widget reads the bucket through CORS, as on a partner's site.
  pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
  [browser, webkit] = await Promise.all([launchChromium(), launchWebKit()]);
  expect((await publish()).status).toBe(0);
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await webkit?.close();
  page?.close();
  await s3?.stop();
  cleanup?.();
});

describe('the widget reading a published bucket', () => {
  it('shows every listing of the published snapshot, verified against the bucket’s keys.json', async () => {
    const snapshot = JSON.parse((await fetchObject(s3, `${PREFIX}/wro-1/listings.json`)).bytes.toString()) as {
      listings: { id: string }[];
    };
    const shown = await widgetShows('wro-1');
    expect(shown).toMatchObject({ ids: snapshot.listings.map((l) => l.id) });
  });

  it('still verifies in the middle of a publish: new pointer bytes, the old pointer signature', async () => {
    const oldSig = (await fetchObject(s3, `${PREFIX}/krk-1/listings.json.sig`)).bytes;
    const data = demoJson();
    const krk = data.facilities.find((f) => f.id === 'krk-1');
    krk.listings[0].price_gross = 77700;
    const db = openDb(dbFile);
    applyImport(db, parseImport(JSON.stringify({ facilities: [krk] }), 'test'));
    db.close();
    expect((await publish()).status).toBe(0);
    await put(`${PREFIX}/krk-1/listings.json.sig`, oldSig); // as between the pointer's two PUTs
    const pointer = JSON.parse((await fetchObject(s3, `${PREFIX}/krk-1/listings.json`)).bytes.toString()) as {
      version: number;
      listings: { price: { gross: number } }[];
    };
    expect(pointer.version).toBe(2);
    const shown = await widgetShows('krk-1');
    expect('error' in shown ? shown.error : '').toBe('');
    // The new version's price (77,700 before dynamic pricing), as the new pointer states it.
    expect((shown as { prices: string[] }).prices[0]).toContain((pointer.listings[0]!.price.gross / 100).toFixed(2));
  });

  it('refuses a pointer whose bytes were changed in the bucket', async () => {
    const pointer = (await fetchObject(s3, `${PREFIX}/zrh-1/listings.json`)).bytes.toString();
    await put(
      `${PREFIX}/zrh-1/listings.json`,
      Buffer.from(pointer.replace(/"gross":(\d)/, (_m, d: string) => `"gross":${d === '1' ? '2' : '1'}`)),
    );
    expect(await widgetShows('zrh-1')).toEqual({ error: 'signature_invalid' });
  });
});
