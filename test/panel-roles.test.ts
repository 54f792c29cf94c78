// Every route of the panel for every role, generated from the route table so that no route escapes: a role the route
// allows gets its answer as before (2xx or 3xx), a lower one 403 with nothing changed and an audit row of the refusal.
import { readdirSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, roleAllows, type Role } from '../server/domain/roles.ts';
import { totpCodeAt } from '../server/domain/totp.ts';
import { tokenDigest } from '../server/domain/sessions.ts';
import { pageRoutes } from '../server/panel/routes.ts';
import { startPanel } from '../server/panel/server.ts';
import { generateSigningKey, loadSigningKey } from '../server/snapshots/format/keygen.ts';
import { folderTarget } from '../server/snapshots/targets/folder.ts';
import type { Store } from '../server/store/store.ts';
import { demoJson, tempDir } from './helpers/fixture.ts';
import { addRoleOperators, emailOf, multipart, sessionAs, stepClock } from './helpers/panel-accounts.ts';
import { PASSWORD, panelClient, panelOver, panelStore, type PanelHandle } from './helpers/panel.ts';
import { attempted } from './helpers/webhook-attempt.ts';

/** One method of one route, with the role it needs. */
type Route = { method: string; path: string; role: Role };

let store: Store;
let handle: PanelHandle;
let cleanup: () => Promise<void>;
let out: string;
let removeOut: () => void;
const clock = stepClock();
const client = panelClient(() => handle);

beforeAll(async () => {
  ({ store, cleanup } = await panelStore());
  await addRoleOperators(store);
  const dir = tempDir();
  removeOut = dir.cleanup;
  out = join(dir.dir, 'public');
  const key = await loadSigningKey((await generateSigningKey(join(dir.dir, 'secrets'))).private_key);
  handle = panelOver(store, { snapshots: { target: folderTarget(out), key, ttlSeconds: 3600 }, now: clock.now });
});
afterAll(async () => {
  await cleanup();
  removeOut();
});

/** A path the route serves, its parameters filled with real ids; a parameter of a new name fails here. */
async function samplePath(route: Route): Promise<string> {
  const key = (await store.createKey({ facilityId: 'wro-1', prefix: 'svc' })).info.id;
  const listing = (await store.facilityData('wro-1'))!.listings[0]!.id;
  const hooks = { keyId: key, url: 'https://partner.example/hooks', events: ['listing.updated'] };
  const endpoint = (await store.webhooks.add(hooks, 'test')).endpoint.id;
  const delivery = (await store.webhooks.sendTest(endpoint, 'test')).id;
  await attempted(store.webhooks, endpoint, delivery, 204); // sent, so that it can be replayed
  const path = route.path
    .replace(/:id\([^)]*\)/, 'wro-1')
    .replace(/:tab\([^)]*\)/, 'api')
    .replace(/:key\([^)]*\)/, key)
    .replace(/:listing\([^)]*\)/, listing)
    .replace(/:endpoint\([^)]*\)/, endpoint)
    .replace(/:delivery\([^)]*\)/, String(delivery));
  expect(path, `a sample path for ${route.method} ${route.path}`).not.toContain(':');
  return path;
}

/** What may change: keys, accounts, facilities, what the folder holds. The audit log is compared apart. */
async function state() {
  const files = (() => {
    try {
      return readdirSync(out, { recursive: true }).map(String).sort();
    } catch {
      return [];
    }
  })();
  return JSON.stringify({
    keys: await store.listKeys(),
    operators: await store.listOperators(),
    facilities: await store.listFacilities(),
    webhooks: await store.webhooks.list(),
    deliveries: await store.webhooks.deliveries(undefined, 1000),
    files,
  });
}

/** The form a route's change needs to succeed (beyond the form token). */
function formFor(path: string): Record<string, string> {
  if (path === '/operators/role') return { email: emailOf('viewer'), role: 'viewer' };
  if (path.endsWith('/keys') || /^\/keys\/key_[A-Za-z0-9]+$/.test(path)) return { label: 'matrix' };
  if (path.endsWith('/webhooks')) return { url: 'https://partner.example/matrix', events: 'listing.updated' };
  return {};
}

async function send(role: Role, route: Route, path: string) {
  const s = await sessionAs(client, emailOf(role));
  if (route.method === 'POST' && path === '/import') {
    const file = multipart(s.csrf, 'data.json', JSON.stringify(demoJson()));
    return client.request('POST', path, {
      headers: { cookie: s.cookie, 'content-type': file.type },
      body: file.body,
    });
  }
  if (route.method === 'POST' && path === '/account/2fa') {
    await s.as('GET', path);
    const secret = (await store.operator('email', emailOf(role)))!.totp_secret!;
    return s.as('POST', path, { code: totpCodeAt(secret, clock.now()) });
  }
  // The pages after a once-only action show what this session's action kept for it.
  const shown = /^\/(keys|webhooks)\/([^/]+)\/(new|secret)$/.exec(path);
  if (shown) {
    const digest = tokenDigest(s.cookie.slice(s.cookie.indexOf('=') + 1));
    await store.keepShownOnce(digest, `${shown[1] === 'keys' ? 'key' : 'webhook'}:${shown[2]}`, 'shown', new Date());
  }
  return s.as(route.method, path, formFor(path));
}

const routes: Route[] = pageRoutes().flatMap((r) =>
  Object.entries(r.methods).map(([method, action]) => ({ method, path: r.path, role: action.role })),
);
const cases = routes.flatMap((route) => ROLES.map((role) => ({ route, role })));

describe('the role matrix', () => {
  it('changes nothing for a viewer but its own account', () => {
    const viewerChanges = routes
      .filter((r) => r.method !== 'GET' && r.role === 'viewer')
      .map((r) => r.path)
      .sort();
    expect(viewerChanges).toEqual(['/account/2fa', '/account/sessions', '/logout']);
    const owners = routes.filter((r) => r.role === 'owner').map((r) => `${r.method} ${r.path}`);
    expect(owners).toEqual(['GET /operators', 'POST /operators/role']);
  });

  it.each(cases.map((c) => [`${c.route.method} ${c.route.path} as ${c.role}`, c] as const))(
    '%s',
    async (_name, { route, role }) => {
      const path = await samplePath(route);
      const before = await state();
      const rows = (await store.auditPage({ limit: 1 })).total;
      const answer = await send(role, route, path);
      await store.resetTwoFactor(emailOf(role));
      if (roleAllows(role, route.role)) {
        expect(answer.status, String(answer.body)).toBeGreaterThanOrEqual(200);
        expect(answer.status).toBeLessThan(400);
        return;
      }
      expect(answer.status).toBe(403);
      expect(await state()).toBe(before);
      const refusals = (await store.auditPage({ action: 'refused', limit: 1 })).rows;
      expect(refusals[0]).toMatchObject({
        actor: emailOf(role),
        action: 'refused',
        detail: { method: route.method, path, role, needs: route.role },
      });
      // The login's row, the refusal's, and the reset-2fa's that each case ends with: nothing else was written.
      expect((await store.auditPage({ limit: 1 })).total).toBe(rows + 3);
    },
  );
});

describe("a viewer's upload over a socket", () => {
  it('is refused on its head, before any of its body is sent, and the refusal is audited', async () => {
    const running = await startPanel({ store, host: '127.0.0.1', port: 0, publicUrl: 'http://x', keyPrefix: 'svc' });
    try {
      const login = await fetch(`${running.url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { origin: running.url, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email: emailOf('viewer'), password: PASSWORD }),
      });
      const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
      // The head alone, declaring 100 MB: an answer can only come from the head.
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(`${running.url}/import`, {
          method: 'POST',
          headers: {
            cookie,
            origin: running.url,
            'content-type': 'multipart/form-data; boundary=x',
            'content-length': String(100 * 1024 * 1024),
          },
        });
        req.on('response', (res) => {
          resolve(res.statusCode!);
          req.destroy();
        });
        req.on('error', reject);
        req.flushHeaders();
      });
      expect(status).toBe(403);
      const [row] = await store.listAudit({ action: 'refused', actor: emailOf('viewer'), limit: 1 });
      expect(row!.detail).toMatchObject({ method: 'POST', path: '/import', needs: 'manager' });
    } finally {
      running.server.closeAllConnections();
      await running.close();
    }
  });
});

describe('what a role is shown', () => {
  it('shows a viewer no form it would be refused, and a manager every one', async () => {
    await store.createKey({ facilityId: 'wro-1', prefix: 'svc' });
    const forms = async (role: Role) => {
      const s = await sessionAs(client, emailOf(role));
      const api = String((await s.as('GET', '/facilities/wro-1/api')).body);
      const snapshots = String((await s.as('GET', '/facilities/wro-1/snapshots')).body);
      return {
        generate: api.includes('action="/facilities/wro-1/keys"'),
        revoke: /action="\/keys\/key_[A-Za-z0-9]+\/revoke"/.test(api),
        publish: snapshots.includes('/snapshots/publish"'),
        importLink: api.includes('href="/import"'),
        operatorsLink: api.includes('href="/operators"'),
      };
    };
    const none = { generate: false, revoke: false, publish: false, importLink: false, operatorsLink: false };
    expect(await forms('viewer')).toEqual(none);
    expect(await forms('manager')).toEqual({
      generate: true,
      revoke: true,
      publish: true,
      importLink: true,
      operatorsLink: false,
    });
    expect(await forms('owner')).toEqual({
      generate: true,
      revoke: true,
      publish: true,
      importLink: true,
      operatorsLink: true,
    });
  });
});
