// The operator's panel in process: a demo database with one operator, the panel's handler over it, and requests as a
// browser sends them (same origin, form-encoded), logged in or not.
import { afterEach, beforeEach, expect } from 'vitest';
import { hashPassword } from '../../server/domain/passwords.ts';
import { inject, type InjectRequest } from '../../server/http/inject.ts';
import { createPanelHandler, type PanelHandler, type PanelOptions } from '../../server/panel/handler.ts';
import { openStore, type Store } from '../../server/store/store.ts';
import { demoDb, tempDir } from './fixture.ts';

export const PANEL_ORIGIN = 'http://127.0.0.1:8788';
export const PASSWORD = 'correct horse battery staple';
export const OPERATOR = 'ops@example.com';

export type PanelHandle = PanelHandler;

/** A demo database (file) with the operator OPERATOR, its store open; `cleanup` closes it and removes the folder. */
export async function panelStore(): Promise<{ file: string; store: Store; cleanup: () => Promise<void> }> {
  const { dir, cleanup } = tempDir();
  const demo = demoDb(dir);
  demo.db.close();
  const store = await openStore(demo.file);
  await store.addOperator(OPERATOR, await hashPassword(PASSWORD));
  return {
    file: demo.file,
    store,
    cleanup: async () => {
      await store.close();
      cleanup();
    },
  };
}

export function panelOver(store: Store, extra: Partial<PanelOptions> = {}): PanelHandle {
  return createPanelHandler({
    store,
    origin: { origin: PANEL_ORIGIN, secure: false },
    publicUrl: 'http://127.0.0.1:8787',
    keyPrefix: 'svc',
    ...extra,
  });
}

export interface PanelInProcess {
  store: Store;
  file: string;
  /** The handler `client` sends to: a test may swap it for one with other options (`over`). */
  handle: PanelHandle;
  /** A handler over this test's store with `extra` options. */
  over(extra?: Partial<PanelOptions>): PanelHandle;
  client: ReturnType<typeof panelClient>;
}

/**
 * A fresh `panelStore` and a handler over it for each test of the file (its own beforeEach and afterEach), `prepare`
 * run on the store first; the fields are filled in before each test.
 */
export function usePanel(opts: { prepare?: (store: Store) => Promise<unknown> } = {}): PanelInProcess {
  const ctx = {} as PanelInProcess;
  let cleanup: (() => Promise<void>) | undefined;
  ctx.over = (extra = {}) => panelOver(ctx.store, extra);
  ctx.client = panelClient(() => ctx.handle);
  beforeEach(async () => {
    ({ store: ctx.store, file: ctx.file, cleanup } = await panelStore());
    await opts.prepare?.(ctx.store);
    ctx.handle = ctx.over();
  });
  afterEach(() => cleanup?.());
  return ctx;
}

export type RequestOptions = Omit<InjectRequest, 'method' | 'url'> & { form?: Record<string, string> };

/** Requests to whichever handler `handle()` returns now (a test may swap it), and logged-in sessions on it. */
export function panelClient(handle: () => PanelHandle) {
  function request(method: string, url: string, opts: RequestOptions = {}) {
    const { form, ...rest } = opts;
    const headers: Record<string, string | undefined> = method === 'GET' ? {} : { origin: PANEL_ORIGIN };
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    return inject(handle(), {
      method,
      url,
      remoteAddress: '10.0.0.1',
      body: Buffer.from(form ? new URLSearchParams(form).toString() : ''),
      ...rest,
      headers: { ...headers, ...rest.headers },
    });
  }

  const logIn = (email = OPERATOR, password = PASSWORD, address = '10.0.0.1') =>
    request('POST', '/login', { form: { email, password }, remoteAddress: address });

  /** A logged-in operator: the cookie and the form token the panel's pages carry. */
  async function session() {
    const login = await logIn();
    expect(login.status).toBe(303);
    const cookie = login.headers['set-cookie']!.split(';')[0]!;
    const page = String((await request('GET', '/', { headers: { cookie } })).body);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)![1]!;
    const as = (method: string, url: string, form: Record<string, string> = {}, headers: Record<string, string> = {}) =>
      request(method, url, {
        headers: { cookie, ...headers },
        ...(method === 'GET' ? {} : { form: { csrf, ...form } }),
      });
    return { cookie, csrf, as };
  }

  return { request, logIn, session };
}
