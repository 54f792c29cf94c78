// sort="code" in the browser: natural order (S-2 before S-10), ties in the operator's order, the same order the API
// gives (both use shared/sort.ts; test/api-sort.test.ts checks the API with the same codes).
import { arrange } from '../src/arrange.ts';
import { deepEqual, equal } from './assert.ts';
import { describe, it, liveAttributes, mount, server, token, waitForCards } from './helpers.ts';

/** The fixture `codes`: S-10, S-2, A-1, s-3, S-02, S-1 in import order. */
const NATURAL = ['A-1', 'S-1', 'S-2', 'S-02', 's-3', 'S-10'];

const codesShown = async (element: HTMLElement) =>
  (await waitForCards(element, NATURAL.length)).map((card) => card.querySelector('.code')?.textContent);

describe('sort by code', () => {
  it('shows codes in natural order, S-2 and S-02 (equal numbers) in import order', async () => {
    const t = token();
    const el = mount({ ...liveAttributes('codes', t), sort: 'code', locale: 'en' });
    deepEqual(await codesShown(el), NATURAL);
    const [request] = await server.log(t);
    equal(new URLSearchParams(request?.query).get('sort'), 'code', 'the API is asked for the same order');
  });

  it('keeps the import order without sort; arrange() alone gives the natural order too', async () => {
    const imported = await server.fixture('codes');
    const el = mount({ ...liveAttributes('codes', token()), locale: 'en' });
    deepEqual(
      await codesShown(el),
      imported.map((l) => l.code),
    );
    const arranged = arrange(imported, { availableOnly: false, sort: 'code', limit: undefined });
    deepEqual(
      arranged.map((l) => l.code),
      NATURAL,
    );
  });
});
