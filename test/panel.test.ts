// The operator's panel in process: no page or action without a session, cross-site changes refused, logins limited,
// keys generated (shown once), used at once and revoked on the API's next request, imports all or nothing, audited.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../server/domain/passwords.ts';
import { newSession } from '../server/domain/sessions.ts';
import type { PanelOptions } from '../server/panel/handler.ts';
import { LoginLimiter } from '../server/panel/login-limits.ts';
import type { Store } from '../server/store/store.ts';
import { demoJson, tempDir } from './helpers/fixture.ts';
import {
  PANEL_ORIGIN as ORIGIN,
  PASSWORD,
  panelClient,
  panelOver,
  panelStore,
  type PanelHandle,
} from './helpers/panel.ts';
import { handlerOver, inject } from './helpers/inject.ts';
import { recordKey } from './helpers/capture.ts';
import { multipart } from './helpers/panel-accounts.ts';

const KEY = /svc_live_[A-Za-z0-9]{32}/;

let cleanup: () => Promise<void>;
let file: string;
let store: Store;
let handle: PanelHandle;

const panel = (extra: Partial<PanelOptions> = {}) => panelOver(store, extra);
const { request, logIn, session } = panelClient(() => handle);

beforeEach(async () => {
  ({ file, store, cleanup } = await panelStore());
  handle = panel();
});
afterEach(() => cleanup());

describe('no page or action without a session', () => {
  it('sends pages to the login form and refuses actions', async () => {
    for (const path of ['/', '/facilities/wro-1', '/facilities/wro-1/api', '/import', '/audit'])
      expect(await request('GET', path)).toMatchObject({ status: 303, headers: { location: '/login' } });
    expect((await request('POST', '/facilities/wro-1/keys', { form: {} })).status).toBe(401);
    expect((await request('POST', '/logout', { form: {} })).status).toBe(401);
    const login = await request('GET', '/login');
    expect(login.status).toBe(200);
    expect(login.headers['content-security-policy']).toContain("script-src 'self'");
    expect(String(login.body)).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });

  it('gives an HttpOnly SameSite=Strict cookie, Secure and __Host- when the panel is https', async () => {
    const plain = (await logIn()).headers['set-cookie']!;
    expect(plain).toMatch(/^listings_panel=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=\d+$/);
    handle = panel({ origin: { origin: 'https://panel.example', secure: true } });
    const secure = await handle({
      method: 'POST',
      url: '/login',
      headers: { origin: 'https://panel.example', 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(new URLSearchParams({ email: 'ops@example.com', password: PASSWORD }).toString()),
      address: '10.0.0.1',
    });
    expect(secure.headers['set-cookie']).toMatch(/^__Host-listings_panel=.*; HttpOnly; SameSite=Strict;.*; Secure$/);
  });

  it('refuses an expired session, a removed account and a logged-out cookie', async () => {
    const op = (await store.operator('email', 'ops@example.com'))!;
    const old = newSession(op.id, new Date(Date.now() - 31 * 60 * 1000));
    await store.createSession(old.row);
    const cookie = `listings_panel=${old.token}`;
    expect((await request('GET', '/', { headers: { cookie } })).status).toBe(303);
    expect(await store.session(old.row.digest)).toBeUndefined();
    const forgotten = newSession(op.id, new Date(Date.now() - 13 * 60 * 60 * 1000));
    await store.createSession(forgotten.row);
    await logIn();
    expect(await store.session(forgotten.row.digest)).toBeUndefined();

    const s = await session();
    expect((await s.as('GET', '/')).status).toBe(200);
    expect((await s.as('POST', '/logout')).status).toBe(303);
    expect((await s.as('GET', '/')).status).toBe(303);

    const t = await session();
    await store.removeOperator('ops@example.com');
    expect((await t.as('GET', '/')).status).toBe(303);
  });

  it("acts as the cookie's own account only", async () => {
    await store.addOperator('other@example.com', await hashPassword(PASSWORD));
    const a = await session();
    const page = String((await a.as('GET', '/')).body);
    expect(page).toContain('ops@example.com');
    expect(page).not.toContain('other@example.com');
    await a.as('POST', '/facilities/wro-1/keys', { label: 'a' });
    expect((await store.listAudit())[0]).toMatchObject({ actor: 'ops@example.com', action: 'key.create' });
  });
});

describe('cross-site changes', () => {
  it('refuses a POST from another origin, with no origin, or without the form token', async () => {
    const s = await session();
    const cross = await s.as('POST', '/facilities/wro-1/keys', {}, { origin: 'https://evil.example' });
    expect(cross.status).toBe(403);
    const noOrigin = await request('POST', '/facilities/wro-1/keys', {
      headers: { cookie: s.cookie, origin: undefined },
      form: { csrf: s.csrf },
    });
    expect(noOrigin.status).toBe(403);
    const referer = await request('POST', '/facilities/wro-1/keys', {
      headers: { cookie: s.cookie, origin: undefined, referer: `${ORIGIN}/facilities/wro-1/api` },
      form: { csrf: s.csrf },
    });
    expect(referer.status).toBe(200);
    const noToken = await request('POST', '/facilities/wro-1/keys', { headers: { cookie: s.cookie }, form: {} });
    expect(noToken.status).toBe(403);
    expect((await request('POST', '/login', { headers: { origin: 'https://evil.example' }, form: {} })).status).toBe(
      403,
    );
    expect(await store.listKeys('wro-1')).toHaveLength(1);
  });
});

describe('login limits', () => {
  it('locks an account after 5 failures, even for the right password, and an address after 20', async () => {
    let now = 0;
    handle = panel({ limiter: new LoginLimiter({ perAccount: 5, perAddress: 20, windowMs: 60_000 }, () => now) });
    for (let i = 0; i < 5; i++) expect((await logIn('ops@example.com', 'wrong password!')).status).toBe(401);
    const locked = await logIn();
    expect(locked.status).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect((await logIn('ops@example.com', PASSWORD, '10.0.0.2')).status).toBe(429);
    now = 60_001;
    expect((await logIn()).status).toBe(303);
    for (let i = 0; i < 20; i++) await logIn(`nobody${i}@example.com`, 'wrong password!', '10.9.9.9');
    expect((await logIn('ops@example.com', PASSWORD, '10.9.9.9')).status).toBe(429);
    expect((await logIn('ops@example.com', PASSWORD, '10.0.0.3')).status).toBe(303);
  });
});

describe('keys from the API tab', () => {
  it('shows a new key once, works at once on the API, and is refused on the next request after revoking', async () => {
    const s = await session();
    const made = await s.as('POST', '/facilities/wro-1/keys', {
      label: 'broker',
      origins: 'https://broker.example',
      rate: '20/s',
    });
    expect(made.status).toBe(200);
    expect(made.headers['cache-control']).toBe('no-store');
    const key = KEY.exec(String(made.body))![0];
    // The run's final check looks for it in every log line written.
    recordKey(key);
    expect(String(made.body)).toContain('will not be shown again');

    const api = handlerOver(file);
    try {
      const get = () => inject(api, { url: '/external/listings', headers: { 'x-api-key': key } });
      expect((await get()).status).toBe(200);
      const tab = String((await s.as('GET', '/facilities/wro-1/api')).body);
      expect(tab).not.toContain(key);
      expect(tab).toContain(`...${key.slice(-4)}`);
      expect(tab).toContain('https://broker.example');
      expect(tab).toContain('20/s');
      const info = (await store.listKeys('wro-1')).find((k) => k.label === 'broker')!;
      expect(String((await s.as('GET', `/keys/${info.id}/revoke`)).body)).toContain('Revoke key');
      expect(await s.as('POST', `/keys/${info.id}/revoke`)).toMatchObject({ status: 303 });
      expect((await get()).status).toBe(401);
    } finally {
      api.close();
    }
    const audit = await s.as('GET', '/audit');
    expect(String(audit.body)).toContain('key.revoke');
    expect(String(audit.body)).not.toContain(key);
    expect(JSON.stringify(await store.listAudit())).not.toContain(key);
  });

  it('edits label, origins and rate; a bad rate is shown, nothing changed', async () => {
    const s = await session();
    await s.as('POST', '/facilities/wro-1/keys', { label: 'x' });
    const info = (await store.listKeys('wro-1')).find((k) => k.label === 'x')!;
    expect(
      (
        await s.as('POST', `/keys/${info.id}`, {
          label: 'y',
          origins: 'https://a.example\nhttps://b.example',
          rate: '600/min',
        })
      ).status,
    ).toBe(303);
    expect((await store.listKeys('wro-1')).find((k) => k.id === info.id)).toMatchObject({
      label: 'y',
      allowed_origins: ['https://a.example', 'https://b.example'],
      rate_per_s: 10,
    });
    const bad = await s.as('POST', `/keys/${info.id}`, { label: 'z', rate: 'fast' });
    expect(bad.status).toBe(400);
    expect((await store.listKeys('wro-1')).find((k) => k.id === info.id)!.label).toBe('y');
  });
});

describe('import', () => {
  it('lists every problem with its JSON path and applies nothing; a valid file is applied and audited', async () => {
    const s = await session();
    const data = demoJson();
    data.facilities[0].listings[0].free_units = 999;
    data.facilities[0].listings[1].price_gross = -1;
    const before = await store.facilityData('wro-1');
    const bad = multipart(s.csrf, 'bad.json', JSON.stringify(data));
    const refused = await request('POST', '/import', {
      headers: { cookie: s.cookie, 'content-type': bad.type },
      body: bad.body,
    });
    expect(refused.status).toBe(422);
    expect(String(refused.body)).toContain('facilities[0].listings[0].free_units');
    expect(String(refused.body)).toContain('facilities[0].listings[1].price_gross');
    expect(await store.facilityData('wro-1')).toEqual(before);

    const good = multipart(s.csrf, 'good.json', JSON.stringify(demoJson()));
    const applied = await request('POST', '/import', {
      headers: { cookie: s.cookie, 'content-type': good.type },
      body: good.body,
    });
    expect(applied.status).toBe(200);
    expect((await store.listAudit())[0]).toMatchObject({ action: 'import', actor: 'ops@example.com' });

    const forged = multipart('not-the-token', 'good.json', JSON.stringify(demoJson()));
    const noToken = await request('POST', '/import', {
      headers: { cookie: s.cookie, 'content-type': forged.type },
      body: forged.body,
    });
    expect(noToken.status).toBe(403);
  });
});

describe('pages', () => {
  it('lists facilities and shows the listings with the API prices, dynamic ones marked', async () => {
    const s = await session();
    const list = String((await s.as('GET', '/')).body);
    expect(list).toContain('/facilities/wro-1');
    const api = handlerOver(file);
    try {
      const key = (await store.createKey({ facilityId: 'wro-1', prefix: 'svc' })).key;
      const body = JSON.parse(
        String((await inject(api, { url: '/external/listings', headers: { 'x-api-key': key } })).body),
      );
      const tab = String((await s.as('GET', '/facilities/wro-1')).body);
      for (const l of body.listings) expect(tab).toContain(`<th scope="row">${l.code}</th>`);
      expect(tab).toContain('dynamic');
    } finally {
      api.close();
    }
    expect(String((await s.as('GET', '/facilities/wro-1/embed')).body)).toContain('storage-listings.js');
    expect((await s.as('GET', '/facilities/nope')).status).toBe(404);
    const css = await request('GET', '/assets/panel.css', { headers: { 'accept-encoding': 'br, gzip' } });
    expect(css.headers['content-encoding']).toBe('br');
  });
});

describe('over a socket', () => {
  it('listens where asked and answers the login page and a login from its own origin', async () => {
    const { startPanel } = await import('../server/panel/server.ts');
    const running = await startPanel({
      store,
      host: '127.0.0.1',
      port: 0,
      publicUrl: 'http://127.0.0.1:8787',
      keyPrefix: 'svc',
    });
    try {
      expect((await fetch(`${running.url}/login`)).status).toBe(200);
      const login = await fetch(`${running.url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: running.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'ops@example.com', password: PASSWORD }),
      });
      expect(login.status).toBe(303);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      expect((await fetch(`${running.url}/`, { headers: { cookie } })).status).toBe(200);
    } finally {
      await running.close();
    }
  });
});

describe('snapshots', () => {
  it('says how to publish without a target; with one, publishes a facility now and shows its version', async () => {
    const s = await session();
    expect(String((await s.as('GET', '/facilities/wro-1/snapshots')).body)).toContain('no publish target');
    expect((await s.as('POST', '/facilities/wro-1/snapshots/publish')).status).toBe(409);

    const { generateSigningKey, loadSigningKey } = await import('../server/snapshots/keygen.ts');
    const { folderTarget } = await import('../server/snapshots/targets/folder.ts');
    const { dir, cleanup: done } = tempDir();
    try {
      const key = await loadSigningKey((await generateSigningKey(join(dir, 'secrets'))).private_key);
      const snapshots = { target: folderTarget(join(dir, 'public')), key, ttlSeconds: 3600 };
      handle = panel({ snapshots });
      const t = await session();
      expect(String((await t.as('GET', '/facilities/wro-1/snapshots')).body)).toContain('never published');
      const published = await t.as('POST', '/facilities/wro-1/snapshots/publish');
      expect(published.status).toBe(200);
      expect(String(published.body)).toContain('Published version 1');
      expect(existsSync(join(dir, 'public', 'wro-1', 'listings.json'))).toBe(true);
      expect(String((await t.as('GET', '/')).body)).toContain('v1, expires');
      await t.as('POST', '/facilities/wro-1/snapshots/publish');
      expect(String((await t.as('GET', '/facilities/wro-1/snapshots')).body)).toMatch(/<dd>2<\/dd>/);
    } finally {
      done();
    }
  });
});

describe('languages', () => {
  it("answers in the browser's first of English, Polish and German, with prices formatted by shared/format", async () => {
    const { langOf } = await import('../server/panel/i18n/i18n.ts');
    expect(langOf('pl-PL,pl;q=0.9,en;q=0.8')).toBe('pl');
    expect(langOf('fr-CH, fr;q=0.9, de;q=0.7, en;q=0.5')).toBe('de');
    expect(langOf('fr')).toBe('en');
    expect(langOf(undefined)).toBe('en');
    const login = String((await request('GET', '/login', { headers: { 'accept-language': 'pl' } })).body);
    expect(login).toContain('<html lang="pl">');
    expect(login).toContain('Zaloguj');
    const s = await session();
    const de = String((await s.as('GET', '/facilities/wro-1', {}, { 'accept-language': 'de-DE' })).body);
    expect(de).toContain('<html lang="de">');
    expect(de).toContain('Freie Einheiten');
    expect(de).toMatch(/\d,\d{2}\sPLN/);
  });
});
