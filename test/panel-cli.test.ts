// `listings operators add` and `listings panel` as the real binary: the password from stdin, the panel on a port of
// its own with its built script, a key generated there, and neither the password nor the key in anything printed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PANEL_BUNDLE } from '../server/panel/assets.ts';
import { recordKey } from './helpers/capture.ts';
import { cli, DEMO_DATA, spawnServer, tempDir } from './helpers/fixture.ts';
import { until } from './helpers/wait.ts';

const PASSWORD = 'correct horse battery staple';

let dir: string;
let cleanup: () => void;
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
});
afterEach(() => cleanup());

describe('listings panel', () => {
  it('serves a login for an account added from stdin, and never prints a password or a key', async () => {
    const env = { LISTINGS_DB: join(dir, 'listings.db') };
    expect(cli(['import', DEMO_DATA], { env }).status).toBe(0);
    const added = cli(['operators', 'add', 'ops@example.com'], { env, input: `${PASSWORD}\n` });
    expect(added.status).toBe(0);
    const panel = spawnServer(['panel', '--port', '0'], env);
    try {
      const url = await panel.ready;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const login = await fetch(`${url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'ops@example.com', password: PASSWORD }),
      });
      expect(login.status).toBe(303);
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      // The built components, found by the compiled binary as a fresh install has them (npm install builds).
      const script = await fetch(`${url}/assets/panel.js`, { headers: { 'accept-encoding': 'br' } });
      expect(script.headers.get('content-encoding')).toBe('br');
      expect(await script.text()).toBe(readFileSync(PANEL_BUNDLE, 'utf8'));
      const api = await (await fetch(`${url}/facilities/wro-1/api`, { headers: { cookie } })).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(api)![1]!;
      const made = await fetch(`${url}/facilities/wro-1/keys`, {
        method: 'POST',
        headers: { origin: url, cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ csrf, label: 'site' }),
      });
      const key = /svc_live_[A-Za-z0-9]{32}/.exec(await made.text())![0];
      recordKey(key);
      await panel.stop();
      const printed = [added.stdout, added.stderr, panel.output().stdout, panel.output().stderr].join('\n');
      expect(printed).not.toContain(PASSWORD);
      expect(printed).not.toContain(key);
      expect(panel.child.exitCode).toBe(0);
    } finally {
      await panel.stop();
    }
  }, 60_000);

  it('serve --panel: the panel on its own port beside the API, a key made there served and refused at once', async () => {
    const env = { LISTINGS_DB: join(dir, 'listings.db'), PANEL_PORT: '0' };
    expect(cli(['import', DEMO_DATA], { env }).status).toBe(0);
    expect(cli(['operators', 'add', 'ops@example.com'], { env, input: `${PASSWORD}\n` }).status).toBe(0);
    const server = spawnServer(['serve', '--port', '0', '--panel', '--quiet'], env);
    try {
      const api = await server.ready;
      const banner = await until('the panel banner', () =>
        /panel for .* at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output().stderr),
      );
      const url = banner[1]!;
      expect(url).not.toBe(api);
      const login = await fetch(`${url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: 'ops@example.com', password: PASSWORD }),
      });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      const tab = await (await fetch(`${url}/facilities/wro-1/api`, { headers: { cookie } })).text();
      const csrf = /name="csrf" value="([^"]+)"/.exec(tab)![1]!;
      const form = { origin: url, cookie, 'content-type': 'application/x-www-form-urlencoded' };
      const made = await (
        await fetch(`${url}/facilities/wro-1/keys`, {
          method: 'POST',
          headers: form,
          body: new URLSearchParams({ csrf }),
        })
      ).text();
      const key = /svc_live_[A-Za-z0-9]{32}/.exec(made)![0];
      recordKey(key);
      expect((await fetch(`${api}/external/listings`, { headers: { 'x-api-key': key } })).status).toBe(200);
      // The panel is not on the API's port.
      expect((await fetch(`${api}/login`)).status).toBe(404);
      const id = /\/keys\/([^/"]+)\/revoke/.exec(
        await (await fetch(`${url}/facilities/wro-1/api`, { headers: { cookie } })).text(),
      )![1]!;
      const revoked = await fetch(`${url}/keys/${id}/revoke`, {
        method: 'POST',
        redirect: 'manual',
        headers: form,
        body: new URLSearchParams({ csrf }),
      });
      expect(revoked.status).toBe(303);
      expect((await fetch(`${api}/external/listings`, { headers: { 'x-api-key': key } })).status).toBe(401);
      await server.stop();
      expect(server.child.exitCode).toBe(0);
    } finally {
      await server.stop();
    }
  }, 60_000);
});
