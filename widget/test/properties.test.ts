// Inputs as React 19 and Vue 3 give them: set as properties of the defined element (`el.limit = "2"`), never through
// the attribute's converter; a property takes what its attribute takes, and `strings` its object too.
import { equal } from './assert.ts';
import { cards, describe, it, liveAttributes, mount, part, record, token, visibleText, waitFor } from './helpers.ts';
import type { StorageListings } from '../src/storage-listings.ts';

/** Sets properties as a framework does: `element[name] = value`, whatever the value's type. */
function setProperties(element: StorageListings, properties: Record<string, unknown>): void {
  Object.assign(element, properties);
}

/** A live widget of the basic scenario (three listings) with `properties` set before it enters the page. */
async function loaded(properties: Record<string, unknown>): Promise<StorageListings> {
  let loads: CustomEvent[] = [];
  const el = mount({ ...liveAttributes('basic', token()), locale: 'en' }, (e) => {
    loads = record(e, 'storage-listings-load');
    setProperties(e, properties);
  });
  await waitFor(() => loads.length, 'the load event');
  await el.updateComplete;
  return el;
}

const rentLabel = (el: HTMLElement) => visibleText(part(cards(el)[0]!, 'rent-link'));

describe('properties set as frameworks set them', () => {
  it('limit: a numeric string limits as the attribute does, also when changed later', async () => {
    const el = await loaded({ limit: '2' });
    equal(cards(el).length, 2, 'limit="2" as a property');
    setProperties(el, { limit: '1' });
    await waitFor(() => cards(el).length === 1, 'one card once limit is "1"');
    setProperties(el, { limit: 'many' });
    await waitFor(() => cards(el).length === 3, 'every card for a limit that is not a number, as the attribute');
  });

  it('strings: a JSON string and an object both override the words', async () => {
    const asJson = await loaded({ strings: '{"rent":"Book now"}' });
    equal(rentLabel(asJson), 'Book now', "a JSON string, as React and Vue pass strings='{...}'");
    const asObject = await loaded({ strings: { rent: 'Reserve' } });
    equal(rentLabel(asObject), 'Reserve', 'an object');
    setProperties(asObject, { strings: '{"rent":"Take it"}' });
    await waitFor(() => rentLabel(asObject) === 'Take it', 'the words of a JSON string set later');
    setProperties(asObject, { strings: '{not json' });
    await waitFor(() => rentLabel(asObject) === 'Rent', 'the built-in words for malformed JSON, as the attribute');
  });
});
