// The route table: exact paths, prefixes and path parameters, HEAD from GET, Allow with 405, 404 for an unknown path.
import { describe, expect, it } from 'vitest';
import { Router, type Params, type RouterAnswers } from './router.ts';
import type { RequestLike } from './transport/answer.ts';

type Seen = { status: number; route?: string; params?: Params; search?: string; allow?: string };

const ANSWERS: RouterAnswers<undefined, Seen> = {
  notFound: () => ({ status: 404 }),
  notAllowed: (_req, allow) => ({ status: 405, allow }),
};

const seen =
  (route: string) =>
  (_req: RequestLike, _path: string, search: string, _ctx: undefined, params: Params): Seen => ({
    status: 200,
    route,
    params,
    search,
  });

const router = new Router<undefined, Seen>(
  [
    { path: '/facilities', methods: { GET: seen('list') } },
    { path: '/files/', prefix: true, methods: { GET: seen('files') } },
    {
      path: '/facilities/:id([a-z0-9-]{1,64})/keys/:key',
      methods: { GET: seen('key'), POST: seen('edit') },
    },
    { path: '/facilities/:id([a-z0-9-]{1,64})/:tab(api|snapshots)', methods: { GET: seen('tab') } },
    { path: '/gone', methods: { GET: () => undefined } },
  ],
  ANSWERS,
);

const ask = (method: string, url: string) =>
  router.answer({ method, url, headers: {}, remoteAddress: '127.0.0.1' }, undefined);

describe('the router', () => {
  it('passes path parameters by name, decoded, and the query apart', () => {
    expect(ask('GET', '/facilities/wro-1/keys/key%20one?x=1')).toMatchObject({
      route: 'key',
      params: { id: 'wro-1', key: 'key one' },
      search: '?x=1',
    });
    expect(ask('POST', '/facilities/wro-1/keys/k')).toMatchObject({ route: 'edit' });
    expect(ask('GET', '/facilities/wro-1/api')).toMatchObject({ route: 'tab', params: { id: 'wro-1', tab: 'api' } });
  });

  it('gives routes without parameters one shared empty object', () => {
    const a = ask('GET', '/facilities').params;
    expect(a).toEqual({});
    expect(ask('GET', '/files/x.js').params).toBe(a);
  });

  it('answers HEAD with GET, and another method with 405 and the Allow list', () => {
    expect(ask('HEAD', '/facilities/wro-1/keys/k')).toMatchObject({ status: 200, route: 'key' });
    expect(ask('DELETE', '/facilities/wro-1/keys/k')).toEqual({ status: 405, allow: 'GET, HEAD, POST' });
    expect(ask('POST', '/files/a')).toEqual({ status: 405, allow: 'GET, HEAD' });
    // No OPTIONS answer given: OPTIONS is refused like any other method, and not listed.
    expect(ask('OPTIONS', '/facilities')).toEqual({ status: 405, allow: 'GET, HEAD' });
    // A method named like an object's own property is not a route's.
    expect(ask('constructor', '/facilities')).toMatchObject({ status: 405 });
  });

  it('answers 404 for an unknown path, a parameter outside its pattern, a malformed escape, or an action with nothing', () => {
    expect(ask('GET', '/nothing')).toEqual({ status: 404 });
    expect(ask('GET', '/facilities/WRO/api')).toEqual({ status: 404 });
    expect(ask('GET', '/facilities/wro-1/other')).toEqual({ status: 404 });
    expect(ask('GET', '/facilities/wro-1/keys/%E0%A4%A')).toEqual({ status: 404 });
    expect(ask('GET', '/gone')).toEqual({ status: 404 });
    expect(router.has('/facilities/wro-1/keys/k')).toBe(true);
    expect(router.has('/facilities/x/keys/k/more')).toBe(false);
  });

  it('answers OPTIONS with its own answer when given one, and lists it in Allow', () => {
    const withOptions = new Router<undefined, Seen>([{ path: '/a', methods: { GET: seen('a') } }], {
      ...ANSWERS,
      options: (_req, allow) => ({ status: 204, allow }),
    });
    const req = (method: string) => ({ method, url: '/a', headers: {}, remoteAddress: '' });
    expect(withOptions.answer(req('OPTIONS'), undefined)).toEqual({ status: 204, allow: 'GET, HEAD, OPTIONS' });
    expect(withOptions.answer(req('PUT'), undefined)).toEqual({ status: 405, allow: 'GET, HEAD, OPTIONS' });
  });
});
