// Many widgets on one page: the module loaded once (a second copy defines nothing), each element with its own state.
import { equal, notIncludes, ok } from './assert.ts';
import {
  cards,
  describe,
  it,
  liveAttributes,
  mount,
  part,
  root,
  server,
  sleep,
  token,
  waitFor,
  waitForCards,
} from './helpers.ts';

describe('many widgets on one page', () => {
  it('keeps each its own source, listings, errors and refresh', async () => {
    const [a, b, c] = [token(), token(), token()];
    const plain = mount({ ...liveAttributes('basic', a), locale: 'en' });
    const euros = mount({ ...liveAttributes('eur', b), refresh: '1', locale: 'en' });
    const broken = mount({ 'api-key': 'svc_live_wrong', 'api-base': `/api/basic/${c}`, locale: 'en' });

    await waitForCards(plain, 3);
    await waitForCards(euros, 1);
    await waitFor(() => part(root(broken), 'error'), 'the error state of the third');
    const basic = await server.fixture('basic');
    const eur = await server.fixture('eur');
    equal(cards(plain)[0]?.dataset['listingId'], basic[0]?.id);
    equal(cards(euros)[0]?.dataset['listingId'], eur[0]?.id);
    notIncludes(part(cards(plain)[0]!, 'price')?.textContent, '€', 'no euros in the first');
    equal(cards(broken).length, 0, 'the error stays in its own widget');

    for (let tries = 0; (await server.log(b)).length < 3; tries += 1) {
      ok(tries < 200, 'the second refreshes');
      await sleep(25);
    }
    equal((await server.log(a)).length, 1, 'the first never reloads, while the second refreshed twice');
    equal(part(root(plain), 'error'), null);
  });

  it('survives the module being loaded twice', async () => {
    const first = customElements.get('storage-listings');
    await import(/* @vite-ignore */ `../src/define.ts?copy=${token()}`);
    equal(customElements.get('storage-listings'), first, 'the first definition stays');
    const el = mount({ ...liveAttributes('basic', token()), locale: 'en' });
    ok((await waitForCards(el, 3)).length === 3);
  });
});
