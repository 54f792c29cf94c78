// storage-listings-rent: fired on a rent click with the listing; cancelable, and a canceled click goes nowhere.
import { deepEqual, equal, ok } from './assert.ts';
import { describe, it, liveAttributes, mount, part, record, server, token, waitFor, waitForCards } from './helpers.ts';

type RentDetail = {
  listing: { id: string; rent_url: string };
  id: string;
  code: string;
  price: number;
  first_period_price: number;
  currency: string;
};

function click(link: HTMLElement): MouseEvent {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, composed: true });
  link.dispatchEvent(event);
  return event;
}

describe('rent events', () => {
  it('fires a cancelable storage-listings-rent; preventDefault keeps the visitor on the page', async () => {
    const expected = await server.fixture('basic');
    let rents: CustomEvent<RentDetail>[] = [];
    const el = mount({ ...liveAttributes('basic', token()) }, (e) => {
      rents = record(e, 'storage-listings-rent');
      e.addEventListener('storage-listings-rent', (event) => event.preventDefault());
    });
    const [first] = await waitForCards(el, 3);
    const before = location.href;
    const event = click(part(first!, 'rent-link')!);

    equal(rents.length, 1);
    equal(rents[0]?.detail.listing.id, expected[0]?.id);
    const { id, code, price, currency } = rents[0]!.detail;
    deepEqual(
      { id, code, price, currency },
      {
        id: expected[0]?.id,
        code: expected[0]?.code,
        price: expected[0]?.price.gross,
        currency: expected[0]?.price.currency,
      },
      'what analytics needs',
    );
    ok(rents[0]?.bubbles && rents[0]?.composed && rents[0]?.cancelable, 'bubbles, composed, cancelable');
    equal(event.defaultPrevented, true, 'the link click is canceled');
    equal(location.href, before);
  });

  it("carries the first period's price beside the regular one: a promotion covering it, or the regular price", async () => {
    let rents: CustomEvent<RentDetail>[] = [];
    const el = mount({ ...liveAttributes('terms', token()) }, (e) => {
      rents = record(e, 'storage-listings-rent');
      e.addEventListener('storage-listings-rent', (event) => event.preventDefault());
    });
    const shown = await waitForCards(el, 3);
    const byCode = (code: string) => shown.find((c) => c.querySelector('.code')?.textContent === code)!;
    click(part(byCode('M-07'), 'rent-link')!); // 50% off the first month
    click(part(byCode('L-12'), 'rent-link')!); // no promotion active
    deepEqual(
      rents.map(({ detail: { code, price, first_period_price, currency } }) => ({
        code,
        price,
        first_period_price,
        currency,
      })),
      [
        { code: 'M-07', price: 32900, first_period_price: 16450, currency: 'PLN' },
        { code: 'L-12', price: 59900, first_period_price: 59900, currency: 'PLN' },
      ],
    );
  });

  it('lets the link work when nobody cancels, in the configured target', async () => {
    const expected = await server.fixture('basic');
    const frame = document.createElement('iframe');
    frame.name = 'rent-frame';
    document.body.append(frame);
    try {
      let rents: CustomEvent<RentDetail>[] = [];
      // rel="" as the README says for a named frame: Firefox opens a noopener link in a new window, not in the frame.
      const attributes = { ...liveAttributes('basic', token()), target: 'rent-frame', rel: '' };
      const el = mount(attributes, (e) => (rents = record(e, 'storage-listings-rent')));
      const [first] = await waitForCards(el, 3);
      const link = part(first!, 'rent-link') as HTMLAnchorElement;
      equal(link.target, 'rent-frame');
      const event = click(link);
      equal(event.defaultPrevented, false);
      equal(rents.length, 1);
      await waitFor(
        () => frame.contentWindow?.location.href === expected[0]?.rent_url,
        'the rental page in the target',
      );
    } finally {
      frame.remove();
    }
  });
});
