// Snapshot mode with keys-url: a verified snapshot renders; tampered, expired or wrongly signed ones never do.
import { deepEqual, equal } from './assert.ts';
import { cards, describe, it, mount, part, record, root, server, token, waitFor, waitForCards } from './helpers.ts';

type ErrorDetail = { status: number; code: string };

function signed(variant: string, t = token()): Record<string, string> {
  return { src: `/snap/${variant}/listings.json?t=${t}`, 'keys-url': '/snap/keys.json', locale: 'en' };
}

async function refused(variant: string): Promise<ErrorDetail[]> {
  let errors: CustomEvent<ErrorDetail>[] = [];
  let loads: CustomEvent[] = [];
  const el = mount(signed(variant), (e) => {
    errors = record(e, 'storage-listings-error');
    loads = record(e, 'storage-listings-load');
  });
  await waitFor(() => part(root(el), 'error'), `the error state for ${variant}`);
  equal(cards(el).length, 0, 'nothing from the snapshot is shown');
  equal(loads.length, 0, 'no load event');
  equal(part(root(el), 'error')?.querySelector('button') ?? null, null, 'no retry: the file itself is wrong');
  return errors.map((e) => e.detail);
}

describe('signed snapshots', () => {
  it('renders a snapshot whose Ed25519 signature verifies', async () => {
    const t = token();
    const expected = await server.fixture('basic');
    const el = mount(signed('valid', t));
    const shown = await waitForCards(el, 3);
    deepEqual(
      shown.map((c) => c.dataset.listingId),
      expected.map((l) => l.id),
    );
    const photo = await waitFor(() => part(shown[0]!, 'photo')?.getAttribute('src'), 'the cover photo in view gets its src');
    equal(photo, expected[0]?.cover_photo?.url, 'cover photo');
    deepEqual(
      (await server.log(t)).map((e) => e.path).sort(),
      ['/snap/valid/listings.json', '/snap/valid/listings.json.sig'],
      'the snapshot and its signature beside it',
    );
  });

  it('refuses a tampered snapshot (one byte of a price changed)', async () => {
    deepEqual(await refused('tampered'), [{ status: 0, code: 'signature_invalid' }]);
  });

  it('refuses an expired snapshot, even correctly signed', async () => {
    deepEqual(await refused('expired'), [{ status: 0, code: 'snapshot_expired' }]);
  });

  it('refuses a snapshot signed by a key that keys.json does not publish', async () => {
    deepEqual(await refused('unknown-kid'), [{ status: 0, code: 'unknown_kid' }]);
  });

  it('refuses a signature made by another key under a published kid', async () => {
    deepEqual(await refused('wrong-key'), [{ status: 0, code: 'signature_invalid' }]);
  });

  it('refuses a snapshot whose kid differs from its signature', async () => {
    deepEqual(await refused('kid-mismatch'), [{ status: 0, code: 'kid_mismatch' }]);
  });

  it('refuses a snapshot without its signature file', async () => {
    deepEqual(await refused('no-signature'), [{ status: 404, code: 'signature_unavailable' }]);
  });
});
