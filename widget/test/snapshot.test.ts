// Snapshot mode with keys-url: a verified snapshot renders, checked against the signature of the version it names
// (consistent snapshots), or the one beside it in an older layout; tampered, expired or wrongly signed ones never do.
// A page may pin the facility (snapshot or live) and a minimum version: anything else is refused like a bad signature.
import { translator } from '../src/i18n.ts';
import { deepEqual, equal, ok } from './assert.ts';
import {
  cards,
  describe,
  it,
  liveAttributes,
  mount,
  part,
  record,
  root,
  server,
  setClock,
  token,
  waitFor,
  waitForCards,
} from './helpers.ts';

type ErrorDetail = { status: number; code: string };
type Attributes = Record<string, string>;

/** The token in the path: the version's signature, resolved against the snapshot's URL, is logged and cached per test. */
function signed(variant: string, t = token(), file = 'listings.json'): Attributes {
  return { src: `/snap/@${t}/${variant}/${file}`, 'keys-url': '/snap/keys.json', locale: 'en' };
}

/** The same file, shown without checking its signature. */
function unsigned(variant: string, t = token()): Attributes {
  return { src: `/snap/@${t}/${variant}/listings.json`, locale: 'en' };
}

/** The snapshot files a test's widget asked for, in order, with the status each got. */
async function requested(t: string): Promise<string[]> {
  return (await server.log(t)).map((e) => `${e.status} ${e.path}`);
}

/** Mounts the widget and waits for all three listings of the fixture, in order. */
async function shown(attributes: Attributes): Promise<HTMLElement[]> {
  const expected = await server.fixture('basic');
  const cardsShown = await waitForCards(mount(attributes), 3);
  deepEqual(
    cardsShown.map((c) => c.dataset.listingId),
    expected.map((l) => l.id),
  );
  return cardsShown;
}

const rendered = (variant: string, t: string, file?: string) => shown(signed(variant, t, file));

async function failedWith(attributes: Attributes): Promise<{ errors: ErrorDetail[]; el: HTMLElement }> {
  let errors: CustomEvent<ErrorDetail>[] = [];
  let loads: CustomEvent[] = [];
  const el = mount(attributes, (e) => {
    errors = record(e, 'storage-listings-error');
    loads = record(e, 'storage-listings-load');
  });
  await waitFor(() => part(root(el), 'error'), `the error state for ${JSON.stringify(attributes)}`);
  equal(cards(el).length, 0, 'nothing from the source is shown');
  equal(loads.length, 0, 'no load event');
  return { errors: errors.map((e) => e.detail), el };
}

const failed = (variant: string, t = token()) => failedWith(signed(variant, t));

/** The error state's message, for comparing two refusals: the visitor sees the same thing. */
const message = (el: HTMLElement) => part(root(el), 'error')?.querySelector('p')?.textContent;

async function refusedWith(attributes: Attributes): Promise<{ errors: ErrorDetail[]; message: string | undefined }> {
  const { errors, el } = await failedWith(attributes);
  equal(part(root(el), 'error')?.querySelector('button') ?? null, null, 'no retry: the file itself is wrong');
  return { errors, message: message(el) ?? undefined };
}

async function refused(variant: string, t = token()): Promise<ErrorDetail[]> {
  return (await refusedWith(signed(variant, t))).errors;
}

/** What a bad signature shows, to compare other refusals with. */
async function badSignatureMessage(): Promise<string | undefined> {
  return (await refusedWith(signed('tampered'))).message;
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

  it('tells an outage of the signature or keys file (5xx) from a bad signature: the 5xx message, with Retry', async () => {
    const outage = translator('en', undefined)('errorServer');
    const bad = await badSignatureMessage();
    for (const [attributes, code] of [
      [signed('signature-down'), 'signature_unavailable'],
      [{ ...signed('valid'), 'keys-url': '/snap/keys-down.json' }, 'keys_unavailable'],
    ] as const) {
      const { errors, el } = await failedWith(attributes);
      deepEqual(errors, [{ status: 503, code }]);
      equal(message(el), outage, `${code}: an outage, not tampering`);
      ok(message(el) !== bad);
      ok(part(root(el), 'error')?.querySelector('button'), `${code}: Retry, as for any 5xx`);
    }
  });

  it('tells a keys-url its server refuses (404) as a setup fault of keys-url, not as tampering', async () => {
    const { errors, el } = await failedWith({ ...signed('valid'), 'keys-url': '/snap/no-such-keys.json' });
    deepEqual(errors, [{ status: 404, code: 'keys_unavailable' }]);
    equal(message(el), translator('en', undefined)('errorAttribute', { name: 'keys-url' }));
    ok(!part(root(el), 'error')?.querySelector('button'), 'no Retry: retrying cannot mend the attribute');
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

describe('pinned facility and minimum version', () => {
  it('refuses a validly signed snapshot of another facility, shown as a bad signature is', async () => {
    const { errors, message } = await refusedWith({ ...signed('other-facility'), facility: 'wro-1' });
    deepEqual(errors, [{ status: 0, code: 'facility_mismatch' }]);
    equal(message, await badSignatureMessage(), 'the same error state as a bad signature');
  });

  it('shows the snapshot of the pinned facility (and the other one where nothing is pinned)', async () => {
    await shown({ ...signed('valid'), facility: 'wro-1' });
    await shown(signed('other-facility'));
  });

  it('refuses another facility without keys-url too: the pin does not depend on the signature', async () => {
    const { errors } = await refusedWith({ ...unsigned('other-facility'), facility: 'wro-1' });
    deepEqual(errors, [{ status: 0, code: 'facility_mismatch' }]);
    await shown({ ...unsigned('valid'), facility: 'wro-1' });
  });

  it('refuses a version below min-version, shown as a bad signature is; shows one equal or above', async () => {
    const { errors, message } = await refusedWith({ ...signed('valid'), 'min-version': '4' }); // the file is v3
    deepEqual(errors, [{ status: 0, code: 'snapshot_rollback' }]);
    equal(message, await badSignatureMessage(), 'the same error state as a bad signature');
    await shown({ ...signed('valid'), 'min-version': '3' });
    await shown({ ...signed('valid'), 'min-version': '2', facility: 'wro-1' });
  });

  it('refuses an old version without keys-url too, and takes a min-version that is not a number as a setup error', async () => {
    deepEqual((await refusedWith({ ...unsigned('valid'), 'min-version': '4' })).errors, [
      { status: 0, code: 'snapshot_rollback' },
    ]);
    const setup = await failedWith({ ...signed('valid'), 'min-version': 'latest' });
    deepEqual(setup.errors, [{ status: 0, code: 'invalid_config' }]);
    const en = translator('en', undefined);
    equal(message(setup.el), en('errorAttribute', { name: 'min-version' }), 'names the attribute to fix, not src');
    ok(message(setup.el)?.includes('min-version'));
  });

  it('names src, api-base or keys-url when its URL cannot be read', async () => {
    const en = translator('en', undefined);
    for (const [attributes, name] of [
      [unsigned('valid'), 'src'],
      [{ ...signed('valid') }, 'keys-url'],
      [liveAttributes('basic', token()), 'api-base'],
    ] as const) {
      const { errors, el } = await failedWith({ ...attributes, [name]: 'http://[bad', locale: 'en' });
      deepEqual(errors, [{ status: 0, code: 'invalid_config' }]);
      equal(message(el), en('errorAttribute', { name }));
    }
  });

  it('says nothing of trying again where it offers no Retry: a src that answers 404', async () => {
    const { errors, el } = await failedWith(unsigned('no-such-folder'));
    deepEqual(errors, [{ status: 404, code: 'not_found' }]);
    equal(part(root(el), 'error')?.querySelector('button') ?? null, null, 'no Retry: the file is not there');
    equal(message(el), translator('en', undefined)('errorLoad'), 'and no "try again" either');
  });

  it("live mode: refuses an API answer for another facility than the pinned one, and loads again when it's fixed", async () => {
    const { errors, el } = await failedWith({ ...liveAttributes('basic', token()), facility: 'krk-1', locale: 'en' });
    deepEqual(errors, [{ status: 0, code: 'facility_mismatch' }]);
    el.setAttribute('facility', 'wro-1');
    await waitForCards(el, 3);
  });
});

describe('a withdrawn facility', () => {
  /** Mounts the widget on a tombstone and waits for the "no longer listed" state. */
  async function noLongerListed(attributes: Attributes) {
    let errors: CustomEvent[] = [];
    const el = mount(attributes, (e) => (errors = record(e, 'storage-listings-error')));
    const box = await waitFor(() => part(root(el), 'withdrawn'), 'the "no longer listed" state');
    equal(box.textContent?.trim(), 'No longer listed');
    equal(part(root(el), 'error'), null, 'not an error state');
    equal(part(root(el), 'empty'), null, 'not "no units available"');
    equal(cards(el).length, 0, 'no listings');
    equal(errors.length, 0, 'no error event');
    return el;
  }

  it('shows "no longer listed" for a signed tombstone of the pinned facility, in the page language', async () => {
    await noLongerListed({ ...signed('withdrawn'), facility: 'wro-1' });
    const el = mount({ ...signed('withdrawn'), facility: 'wro-1', locale: 'pl' });
    const box = await waitFor(() => part(root(el), 'withdrawn'), 'the Polish state');
    equal(box.textContent?.trim(), 'Już niedostępne');
  });

  it("refuses another facility's tombstone where one is pinned, and a tombstone whose bytes were changed", async () => {
    deepEqual((await refusedWith({ ...signed('withdrawn'), facility: 'krk-1' })).errors, [
      { status: 0, code: 'facility_mismatch' },
    ]);
    deepEqual(
      (await refused('withdrawn-tampered')).map((e) => e.code),
      ['signature_invalid'],
    );
  });
});

describe('a verified snapshot on a page left open', () => {
  /** When the fixture's verified snapshot expires (the test runner's start decides it). */
  async function expiresAt(): Promise<number> {
    const snapshot = (await (await fetch('/snap/valid/listings.json')).json()) as { expires_at: string };
    return Date.parse(snapshot.expires_at);
  }

  it('shows the expired state once expires_at passes, without refresh', async () => {
    const expires = await expiresAt();
    setClock(expires - 1500);
    let errors: CustomEvent<ErrorDetail>[] = [];
    const el = mount(signed('valid'), (e) => (errors = record(e, 'storage-listings-error')));
    await waitForCards(el, 3);
    equal(errors.length, 0, 'not expired yet');
    const box = await waitFor(() => part(root(el), 'error'), 'the expired state', 5000);
    ok(Date.now() >= expires, 'not before expires_at');
    equal(cards(el).length, 0, 'nothing from the snapshot is shown');
    deepEqual(
      errors.map((e) => e.detail),
      [{ status: 0, code: 'snapshot_expired' }],
    );
    equal(
      box.querySelector('p')?.textContent,
      (await refusedWith(signed('expired'))).message,
      'as a file expired on load',
    );
  });

  it('with refresh, keeps refreshing after the expiry and shows a fresh file once the publisher has one', async () => {
    const expires = await expiresAt();
    setClock(expires + 1000); // the file reads as expired
    let errors: CustomEvent<ErrorDetail>[] = [];
    let loads: CustomEvent[] = [];
    const el = mount({ ...signed('valid'), refresh: '1' }, (e) => {
      errors = record(e, 'storage-listings-error');
      loads = record(e, 'storage-listings-load');
    });
    await waitFor(() => part(root(el), 'error'), 'the expired state');
    equal(errors[0]?.detail.code, 'snapshot_expired');
    await waitFor(() => errors.length > 1, 'a refresh after the expiry, refused again', 4000);
    equal(errors[1]?.detail.code, 'snapshot_expired');
    setClock(expires - 60_000); // as if the publisher had exported again: the file is fresh
    await waitForCards(el, 3);
    equal(part(root(el), 'error'), null, 'the error state is gone');
    equal(loads.length, 1, 'a load event for the fresh file');
  });

  it('sets no timer while removed, and shows the expired state when put back after expires_at', async () => {
    const expires = await expiresAt();
    setClock(expires - 1000);
    let errors: CustomEvent<ErrorDetail>[] = [];
    const el = mount(signed('valid'), (e) => (errors = record(e, 'storage-listings-error')));
    await waitForCards(el, 3);
    el.remove();
    await waitFor(() => Date.now() > expires + 300, 'expires_at to pass', 4000);
    equal(errors.length, 0, 'no error while out of the page');
    document.body.append(el);
    await waitFor(() => part(root(el), 'error'), 'the expired state once back');
    deepEqual(
      errors.map((e) => e.detail.code),
      ['snapshot_expired'],
    );
  });
});
