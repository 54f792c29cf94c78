// The operator's panel on a real socket: one per test over a fresh panelStore, and the login form posted as its page does.
import { afterEach } from 'vitest';
import { startPanel, type RunningPanel } from '../../server/panel/server.ts';
import type { Store } from '../../server/store/store.ts';
import { panelStore } from './panel.ts';

type PanelServerOptions = Parameters<typeof startPanel>[0];

/**
 * For each test of the file or describe it is called in: `start` opens a fresh store (`makeStore`, a panelStore by
 * default) and a panel over it on a free loopback port, with `extra` options; after the test its connections are cut,
 * it is closed and the store removed.
 */
export function panelSocketEachTest(
  makeStore: () => Promise<{ store: Store; cleanup: () => Promise<void> }> = panelStore,
): (extra?: Partial<PanelServerOptions>) => Promise<{ panel: RunningPanel; store: Store }> {
  let panel: RunningPanel | undefined;
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => {
    panel?.server.closeAllConnections();
    await panel?.close();
    await cleanup?.();
    panel = undefined;
    cleanup = undefined;
  });
  return async (extra = {}) => {
    const made = await makeStore();
    cleanup = made.cleanup;
    panel = await startPanel({
      store: made.store,
      host: '127.0.0.1',
      port: 0,
      publicUrl: 'http://127.0.0.1:8787',
      keyPrefix: 'svc',
      ...extra,
    });
    return { panel, store: made.store };
  };
}

/** POSTs the login form to the panel at `url` as its own page does (same origin, form-encoded), not following redirects. */
export function postLogin(
  url: string,
  form: { email: string; password: string },
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: url, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
}
