// What the rental page shows beyond price, on the cards and in the details dialog: the winning promotion with the regular
// price struck through (and said in words to screen readers), up to four features with icons, the unit type; the
// schedule, the move-in total with its parts, protection, door and floor; in English, Polish and German.
import { leanSelfStorageOf } from '../../shared/structured-data-lean.ts';
import type { ListResponse } from '../../shared/listing.ts';
import { deepEqual, equal, includes, ok } from './assert.ts';
import {
  API_KEY,
  cards,
  describe,
  it,
  liveAttributes,
  mount,
  part,
  root,
  setClock,
  token,
  visibleText,
  waitFor,
  waitForCards,
} from './helpers.ts';

const money = (minor: number, locale = 'en') =>
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'PLN' }).format(minor / 100);

/** Text with its spaces as visibleText leaves them (Intl puts no-break spaces into amounts). */
const flat = (text: string) => text.replace(/\s+/g, ' ');

/** The live `terms` scenario's cards by code. */
async function termsCards(locale = 'en', extra: Record<string, string | boolean> = {}) {
  const el = mount({ ...liveAttributes('terms', token()), locale, ...extra });
  const shown = await waitForCards(el, 3);
  const byCode = (code: string) => shown.find((c) => c.querySelector('.code')?.textContent === code)!;
  return { el, m07: byCode('M-07'), s01: byCode('S-01'), l12: byCode('L-12') };
}

/** Opens a card's details and waits for the Detail (the move-in section) to show. */
async function details(el: HTMLElement, card: HTMLElement): Promise<HTMLElement> {
  card.querySelector<HTMLButtonElement>('[data-action="details"]')!.click();
  return waitFor(() => part(root(el), 'move-in')?.closest<HTMLElement>('dialog[open]'), 'the dialog with move-in');
}

/** A `<dl>`'s rows as "term: value" texts. */
const rows = (dl: Element | null | undefined) =>
  [...(dl?.querySelectorAll(':scope > div') ?? [])].map(
    (row) => `${visibleText(row.querySelector('dt'))}: ${visibleText(row.querySelector('dd'))}`,
  );

describe('promotions, features and unit type on a card', () => {
  it('shows the winning promotion: its title, the promoted price and the regular one struck through', async () => {
    const { m07, l12 } = await termsCards();
    const promotion = part(m07, 'promotion');
    ok(promotion, 'the promotion part');
    equal(promotion.querySelector('.promotion-title')?.textContent, '50% off your first month');
    const price = part(promotion, 'price');
    ok(price, 'the price part inside the promotion');
    equal(visibleText(price), flat(`${money(16450)} / month ${money(32900)}`));
    const regular = part(price, 'regular-price');
    equal(regular?.tagName, 'S', 'the regular price is an <s>');
    equal(regular?.textContent, money(32900));
    // A screen reader hears both prices in words, not the struck-through text on its own.
    equal(price.querySelector('[aria-hidden="true"]')?.contains(regular), true, 'the visual prices are hidden from it');
    equal(price.querySelector('.sr-only')?.textContent, `${money(16450)} instead of ${money(32900)} / month`);

    equal(part(l12, 'promotion'), null, 'no promotion active now: none shown');
    equal(part(l12, 'regular-price'), null);
    equal(visibleText(part(l12, 'price')), flat(`${money(59900)} / month`));
  });

  it('shows up to four features, each an inline SVG icon and its label, and the unit type', async () => {
    const { m07, s01 } = await termsCards();
    const items = [...(part(m07, 'features')?.querySelectorAll('li') ?? [])];
    deepEqual(
      items.map((li) => li.textContent),
      ['Drive-up', 'Ground floor', 'Power socket', 'Lighting'],
      'the first four of five, in order',
    );
    for (const li of items) {
      const icon = li.querySelector('svg');
      equal(icon?.getAttribute('aria-hidden'), 'true', 'the label says it: the icon is hidden from screen readers');
      ok(icon?.querySelector('path')?.getAttribute('d')?.startsWith('M'), 'an inline path, no external asset');
    }
    deepEqual(
      [...(part(s01, 'features')?.querySelectorAll('li') ?? [])].map((li) => li.textContent),
      ['Indoor', 'Climate controlled'],
    );
    equal(part(m07, 'unit-type')?.textContent, 'Medium');
    equal(part(s01, 'unit-type')?.textContent, 'Locker');
  });

  it('speaks Polish and German, and takes a partial override of the words', async () => {
    const pl = await termsCards('pl');
    equal(part(pl.m07, 'unit-type')?.textContent, 'Średni');
    includes(part(pl.m07, 'features')?.textContent, 'Dojazd autem');
    includes(part(pl.m07, 'price')?.querySelector('.sr-only')?.textContent, ' zamiast ');
    const de = await termsCards('de');
    equal(part(de.l12, 'unit-type')?.textContent, 'Groß');
    includes(part(de.m07, 'features')?.textContent, 'Direkt anfahrbar');
    includes(part(de.m07, 'price')?.querySelector('.sr-only')?.textContent, ' statt ');
    const strings = JSON.stringify({ featureNames: { drive_up: 'Drive-in' }, instead: '{price}, was {regular}' });
    const own = await termsCards('en', { strings });
    deepEqual(
      [...(part(own.m07, 'features')?.querySelectorAll('li') ?? [])].map((li) => li.textContent),
      ['Drive-in', 'Ground floor', 'Power socket', 'Lighting'],
      'the other words stay',
    );
    equal(
      part(own.m07, 'price')?.querySelector('.sr-only')?.textContent,
      `${money(16450)}, was ${money(32900)} / month`,
    );
  });

  it('shows the net of the promoted price with show-net', async () => {
    const { m07 } = await termsCards('en', { 'show-net': true });
    equal(m07.querySelector('.net')?.textContent, `${money(13374)} net + 23% VAT`);
  });
});

describe('the details dialog beyond price', () => {
  it('shows the schedule, the move-in total with its parts, protection, the door and the floor', async () => {
    const { el, m07 } = await termsCards();
    const dialog = await details(el, m07);
    deepEqual(
      rows(dialog.querySelector('.schedule dl')),
      [`month 1: ${money(16450)} 50% off your first month`, `month 2+: ${money(32900)}`].map(flat),
    );
    deepEqual(
      rows(part(dialog, 'move-in')?.querySelector('dl')),
      [
        `First month: ${money(16450)}`,
        `Deposit: ${money(29900)}`,
        `Admin fee: ${money(4900)}`,
        `Basic cover: ${money(1500)}`,
        `Total: ${money(52750)}`,
      ].map(flat),
    );
    const facts = rows(dialog.querySelector('.facts'));
    // The plan's title is the operator's: a bidi isolate (FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE) in the text.
    includes(
      facts.join('\n'),
      flat(`Protection: Required: \u2068Basic cover\u2069, ${money(1500)} / month`),
      'the cheapest plan',
    );
    includes(facts.join('\n'), 'Door (W × H): 2 × 2.2 m');
    includes(facts.join('\n'), 'Floor: Ground floor');
  });

  it('shows a promotion over several periods as one run, and a floor below ground', async () => {
    const { el, l12, s01 } = await termsCards('de');
    const dialog = await details(el, s01);
    deepEqual(
      rows(dialog.querySelector('.schedule dl')),
      [`Monat 1–2: ${money(7920, 'de')} 20% off, this hour only`, `Monat 3+: ${money(9900, 'de')}`].map(flat),
    );
    equal(part(dialog, 'move-in')?.querySelector('h3')?.textContent, 'Fällig beim Einzug');
    dialog.querySelector<HTMLButtonElement>('.sheet-head button')!.click();
    await waitFor(() => !root(el).querySelector('dialog .sheet'), 'the dialog closed and emptied');
    const large = await details(el, l12);
    includes(rows(large.querySelector('.facts')).join('\n'), 'Etage: -1');
    equal(large.querySelector('.schedule'), null, 'no schedule while the regular price is all');
  });
});

describe('live answers as given', () => {
  it("shows the API's promotions as it answered them, whatever the visitor's clock says", async () => {
    setClock(Date.now() + 30 * 24 * 60 * 60 * 1000); // a month on: the API's hour-long promotion has ended by this clock
    const { s01 } = await termsCards();
    equal(part(s01, 'promotion')?.querySelector('.promotion-title')?.textContent, '20% off, this hour only');
  });

  it('writes the lean JSON-LD for a facility with an address, hours and amenities: its name and the offers', async () => {
    const t = token();
    const el = mount({ ...liveAttributes('terms', t), 'structured-data': true, locale: 'en' });
    await waitForCards(el, 3);
    const response = await fetch(`/api/terms/${t}/external/listings`, { headers: { 'X-API-Key': API_KEY } });
    const body = (await response.json()) as ListResponse;
    const script = await waitFor(() => el.querySelector('script[type="application/ld+json"]'), 'the JSON-LD');
    const ld = JSON.parse(script.textContent ?? 'null') as ReturnType<typeof leanSelfStorageOf>;
    deepEqual(ld, JSON.parse(JSON.stringify(leanSelfStorageOf(body.facility, body.listings))));
    equal(ld.address, undefined, "the address is the rental page's to tell");
    equal(cards(el).length, 3);
  });
});

describe('answers the widget does not fully know', () => {
  type Change = (snapshot: { facility: Record<string, unknown>; listings: Record<string, unknown>[] }) => void;

  /** A blob: URL of an unsigned snapshot of one `terms` listing and a facility, changed by `change`. */
  async function oddSource(change: Change): Promise<string> {
    const listings = await (await fetch('/__test/fixtures/terms')).json();
    const snapshot = { facility: { id: 'wro-1', name: 'SafeBox' }, listings: [listings[0]], version: 1 };
    change(snapshot);
    return URL.createObjectURL(new Blob([JSON.stringify(snapshot)], { type: 'application/json' }));
  }

  /** That snapshot shown, in English, with its facility header. */
  async function odd(change: Change) {
    const el = mount({ src: await oddSource(change), locale: 'en', 'show-facility': true });
    const [card] = await waitForCards(el, 1);
    return { el, card: card! };
  }

  it("shows a newer server's vocabulary word as it reads, and optional protection as optional", async () => {
    const { el, card } = await odd(({ listings: [l] }) => {
      Object.assign(l!, { features: ['drive_up', 'hovercraft_bay'], unit_type: 'boat_house' });
      Object.assign(l!, { protection: { ...(l!.protection as object), required: false } });
    });
    deepEqual(
      [...(part(card, 'features')?.querySelectorAll('li') ?? [])].map((li) => [
        li.textContent,
        !!li.querySelector('svg'),
      ]),
      [
        ['Drive-up', true],
        ['Hovercraft bay', false],
      ],
    );
    equal(part(card, 'unit-type')?.textContent, 'Boat house');
    const dialog = await details(el, card);
    includes(
      rows(dialog.querySelector('.facts')).join('\n'),
      flat(`Protection: Optional, from ${money(1500)} / month`),
    );
  });

  it("labels the first period due at move-in in the listing's own period, as the rental page does", async () => {
    const firstRow = async (period: string, locale: string) => {
      const src = await oddSource(({ listings: [l] }) => {
        l!.price = { ...(l!.price as object), period };
      });
      const el = mount({ src, locale });
      const [card] = await waitForCards(el, 1);
      const [label] = rows(part(await details(el, card!), 'move-in')?.querySelector('dl'))[0]!.split(':');
      return label;
    };
    equal(await firstRow('P3M', 'en'), 'First 3 months');
    equal(await firstRow('P14D', 'en'), 'First 14 days');
    equal(await firstRow('P1M', 'en'), 'First month');
    equal(await firstRow('P3M', 'pl'), 'Pierwsze 3 miesiące');
    equal(await firstRow('P1M', 'pl'), 'Pierwszy miesiąc');
    equal(await firstRow('P14D', 'de'), 'Miete, erste 14 Tage');
    equal(await firstRow('P1M', 'de'), 'Miete, 1. Monat');
  });

  it("counts the schedule's runs in the period's unit, as the rental page does", async () => {
    const scheduleRows = async (period: string) => {
      const src = await oddSource(({ listings: [l] }) => {
        l!.price = { ...(l!.price as object), period };
      });
      const el = mount({ src, locale: 'en' });
      const [card] = await waitForCards(el, 1);
      const dialog = await details(el, card!);
      return rows(dialog.querySelector('.schedule dl')).map((row) => row.split(':')[0]);
    };
    deepEqual(await scheduleRows('P3M'), ['month 1–3', 'month 4+']);
    deepEqual(await scheduleRows('P1Y6M'), ['month 1–18', 'month 19+']);
    deepEqual(await scheduleRows('P2W'), ['week 1–2', 'week 3+']);
    deepEqual(await scheduleRows('P1M'), ['month 1', 'month 2+']);
  });

  it('leaves out a facility header whose fields are malformed, and shows the units', async () => {
    const { el } = await odd(({ facility }) => {
      Object.assign(facility, { timezone: 'Mars/Olympus_Mons', office_hours: { mo: 5 }, amenities: 'cctv' });
    });
    equal(part(root(el), 'facility'), null);
    equal(part(root(el), 'error'), null, 'no error state: the units show');
  });
});
