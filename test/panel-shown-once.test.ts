// Post/Redirect/Get for the panel's once-only actions: making a key, adding an endpoint, rotating its secret and
// publishing answer 303 to a page, so a reload repeats nothing; what is shown once (a key, a secret) is kept for the
// session that made it, read once, and never put in a URL. A second look says it was shown once.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { recordKey } from './helpers/capture.ts';
import { tempDir } from './helpers/fixture.ts';
import { usePanel } from './helpers/panel.ts';
import { tokenDigest } from '../server/domain/sessions.ts';

const KEY = /svc_live_[A-Za-z0-9]{32}/;
const SECRET = /whsec_[A-Za-z0-9+/=]+/;

const panel = usePanel();
const { session } = panel.client;

describe('a once-only action', () => {
  it('makes a key, answers 303 to its page, shows the key there once and never again', async () => {
    const s = await session();
    const made = await s.as('POST', '/facilities/wro-1/keys', { label: 'once' });
    expect(made.status).toBe(303);
    const info = (await panel.store.listKeys('wro-1')).find((k) => k.label === 'once')!;
    expect(made.headers.location).toBe(`/keys/${info.id}/new`);
    const first = await s.as('GET', made.headers.location!);
    expect(first.status).toBe(200);
    const key = KEY.exec(String(first.body))![0];
    recordKey(key);
    expect(key.endsWith(info.hint)).toBe(true);
    // A reload: the same key is not shown, and no second key is made.
    const again = await s.as('GET', made.headers.location!);
    expect(again.status).toBe(410);
    expect(String(again.body)).not.toMatch(KEY);
    expect(String(again.body)).toContain('shown once');
    expect((await panel.store.listKeys('wro-1')).filter((k) => k.label === 'once')).toHaveLength(1);
  });

  it('shows a key only to the session that made it', async () => {
    const [s, other] = [await session(), await session()];
    const made = await s.as('POST', '/facilities/wro-1/keys', { label: 'mine' });
    expect((await other.as('GET', made.headers.location!)).status).toBe(410);
    const mine = String((await s.as('GET', made.headers.location!)).body);
    recordKey(KEY.exec(mine)![0]);
  });

  it('adds an endpoint and rotates its secret with a 303 each, the secret shown once, a reload rotating nothing', async () => {
    const s = await session();
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'hooks' });
    const added = await s.as('POST', `/keys/${info.id}/webhooks`, {
      url: 'https://partner.example/hooks',
      events: 'listing.updated',
    });
    expect(added.status).toBe(303);
    const [endpoint] = await panel.store.webhooks.list(info.id);
    expect(added.headers.location).toBe(`/webhooks/${endpoint!.id}/secret`);
    const secret = SECRET.exec(String((await s.as('GET', added.headers.location!)).body))![0];
    expect((await s.as('GET', added.headers.location!)).status).toBe(410);

    const rotated = await s.as('POST', `/webhooks/${endpoint!.id}/rotate`);
    expect(rotated.status).toBe(303);
    expect(rotated.headers.location).toBe(`/webhooks/${endpoint!.id}/secret`);
    const shown = String((await s.as('GET', rotated.headers.location!)).body);
    const next = SECRET.exec(shown)![0];
    expect(next).not.toBe(secret);
    const reload = await s.as('GET', rotated.headers.location!);
    expect(reload.status).toBe(410);
    expect(String(reload.body)).not.toMatch(SECRET);
    expect((await panel.store.listAudit({ action: 'webhook.rotate' })).length).toBe(1);
  });

  it('publishes with a 303 to the Snapshots tab, which says so once; a reload publishes nothing', async () => {
    const { generateSigningKey, loadSigningKey } = await import('../server/snapshots/format/keygen.ts');
    const { folderTarget } = await import('../server/snapshots/targets/folder.ts');
    const { dir, cleanup } = tempDir();
    try {
      const key = await loadSigningKey((await generateSigningKey(join(dir, 'secrets'))).private_key);
      panel.handle = panel.over({ snapshots: { target: folderTarget(join(dir, 'public')), key, ttlSeconds: 3600 } });
      const s = await session();
      const published = await s.as('POST', '/facilities/wro-1/snapshots/publish');
      expect(published.status).toBe(303);
      expect(published.headers.location).toBe('/facilities/wro-1/snapshots');
      expect(String((await s.as('GET', published.headers.location!)).body)).toContain('Published version 1');
      expect(String((await s.as('GET', published.headers.location!)).body)).not.toContain('Published version');
      expect(await panel.store.listAudit({ action: 'snapshot.publish' })).toHaveLength(1);
    } finally {
      cleanup();
    }
  });
});

describe('what is kept to show once', () => {
  it('is read once, by its session alone, for 10 minutes, at most 8 a session, and goes with the session', async () => {
    const s = await session();
    const t0 = new Date('2026-03-02T10:00:00Z');
    const { store } = panel;
    const sessionDigest = tokenDigest(s.cookie.slice(s.cookie.indexOf('=') + 1));
    await store.keepShownOnce(sessionDigest, 'a', 'one', t0);
    expect(await store.takeShownOnce('other', 'a', t0)).toBeUndefined();
    expect(await store.takeShownOnce(sessionDigest, 'a', t0)).toBe('one');
    expect(await store.takeShownOnce(sessionDigest, 'a', t0)).toBeUndefined();
    await store.keepShownOnce(sessionDigest, 'late', 'x', t0);
    expect(await store.takeShownOnce(sessionDigest, 'late', new Date(t0.getTime() + 10 * 60_000))).toBeUndefined();
    for (let i = 0; i < 12; i++) await store.keepShownOnce(sessionDigest, `n${i}`, `v${i}`, new Date(t0.getTime() + i));
    const left = [];
    for (let i = 0; i < 12; i++) left.push(await store.takeShownOnce(sessionDigest, `n${i}`, t0));
    expect(left).toEqual([...Array(4).fill(undefined), 'v4', 'v5', 'v6', 'v7', 'v8', 'v9', 'v10', 'v11']);
    await store.keepShownOnce(sessionDigest, 'gone', 'y', t0);
    await store.endSession(sessionDigest);
    expect(await store.takeShownOnce(sessionDigest, 'gone', t0)).toBeUndefined();
  });
});
