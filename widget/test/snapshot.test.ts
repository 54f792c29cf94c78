// Snapshot mode with keys-url: a verified snapshot renders, checked against the signature of the version it names
// (consistent snapshots), or the one beside it in an older layout; tampered, expired or wrongly signed ones never do.
import { deepEqual, equal } from './assert.ts';
import { cards, describe, it, mount, part, record, root, server, token, waitFor, waitForCards } from './helpers.ts';

type ErrorDetail = { status: number; code: string };

/** The token in the path: the version's signature, resolved against the snapshot's URL, is logged and cached per test. */
function signed(variant: string, t = token(), file = 'listings.json'): Record<string, string> {
  return { src: `/snap/@${t}/${variant}/${file}`, 'keys-url': '/snap/keys.json', locale: 'en' };
}

/** The snapshot files a test's widget asked for, in order, with the status each got. */
async function requested(t: string): Promise<string[]> {
  return (await server.log(t)).map((e) => `${e.status} ${e.path}`);
}

/** Mounts the variant and waits for all three listings of the fixture, in order. */
async function rendered(variant: string, t: string, file?: string): Promise<HTMLElement[]> {
  const expected = await server.fixture('basic');
  const shown = await waitForCards(mount(signed(variant, t, file)), 3);
  deepEqual(
    shown.map((c) => c.dataset.listingId),
    expected.map((l) => l.id),
  );
  return shown;
}

async function failed(variant: string, t = token()): Promise<{ errors: ErrorDetail[]; el: HTMLElement }> {
  let errors: CustomEvent<ErrorDetail>[] = [];
  let loads: CustomEvent[] = [];
  const el = mount(signed(variant, t), (e) => {
    errors = record(e, 'storage-listings-error');
    loads = record(e, 'storage-listings-load');
  });
  await waitFor(() => part(root(el), 'error'), `the error state for ${variant}`);
  equal(cards(el).length, 0, 'nothing from the snapshot is shown');
  equal(loads.length, 0, 'no load event');
  return { errors: errors.map((e) => e.detail), el };
}

async function refused(variant: string, t = token()): Promise<ErrorDetail[]> {
  const { errors, el } = await failed(variant, t);
  equal(part(root(el), 'error')?.querySelector('button') ?? null, null, 'no retry: the file itself is wrong');
  return errors;
}

describe('signed snapshots', () => {
  it('renders a snapshot whose Ed25519 signature verifies', async () => {
    const t = token();
    const expected = await server.fixture('basic');
    const shown = await rendered('valid', t);
    const photo = await waitFor(
      () => part(shown[0]!, 'photo')?.getAttribute('src'),
      'the cover photo in view gets its src',
    );
    equal(photo, expected[0]?.cover_photo?.url, 'cover photo');
    deepEqual(
      await requested(t),
      ['200 /snap/valid/listings.json', '200 /snap/valid/v3/listings.json.sig'],
      'the pointer, then the immutable signature of the version it names (not the pointer .sig)',
    );
  });

  it('renders a pointer read mid-publish: listings.json of version 4 while its .sig is still version 3', async () => {
    const t = token();
    await rendered('mid-publish', t);
    deepEqual(await requested(t), [
      '200 /snap/mid-publish/listings.json',
      '200 /snap/mid-publish/v4/listings.json.sig',
    ]);
  });

  it('renders a folder exported by an older release (no v<N>/): the signature beside the file, after a 404', async () => {
    const t = token();
    await rendered('old-layout', t);
    deepEqual(await requested(t), [
      '200 /snap/old-layout/listings.json',
      '404 /snap/old-layout/v3/listings.json.sig',
      '200 /snap/old-layout/listings.json.sig',
    ]);
  });

  it('renders a version named directly (src inside v<N>/) with the signature beside it', async () => {
    const t = token();
    await rendered('valid', t, 'v3/listings.json');
    deepEqual(await requested(t), ['200 /snap/valid/v3/listings.json', '200 /snap/valid/v3/listings.json.sig']);
  });

  it('refuses a tampered snapshot (one byte of a price changed)', async () => {
    deepEqual(await refused('tampered'), [{ status: 0, code: 'signature_invalid' }]);
  });

  it("refuses a snapshot whose version field was rewritten to borrow another version's signature", async () => {
    const t = token();
    deepEqual(await refused('renumbered', t), [{ status: 0, code: 'signature_invalid' }]);
    deepEqual(await requested(t), ['200 /snap/renumbered/listings.json', '200 /snap/renumbered/v3/listings.json.sig']);
  });

  it("does not fall back to the pointer's .sig when the version's signature fails with anything but 404", async () => {
    const t = token();
    const { errors } = await failed('signature-down', t);
    deepEqual(errors, [{ status: 503, code: 'signature_unavailable' }]);
    deepEqual(await requested(t), [
      '200 /snap/signature-down/listings.json',
      '503 /snap/signature-down/v3/listings.json.sig',
    ]);
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

  it('refuses a snapshot without any signature file', async () => {
    const t = token();
    deepEqual(await refused('no-signature', t), [{ status: 404, code: 'signature_unavailable' }]);
    deepEqual(await requested(t), [
      '200 /snap/no-signature/listings.json',
      '404 /snap/no-signature/v3/listings.json.sig',
      '404 /snap/no-signature/listings.json.sig',
    ]);
  });
});
