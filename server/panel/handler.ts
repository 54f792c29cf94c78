// The panel as a function from a request to an answer: login first, then pages and actions for one operator.
import type { Store } from '../store/store.ts';
import { isUploadRoute } from './admission.ts';
import {
  authenticate,
  clearedCookie,
  csrfValid,
  fromPanel,
  notFromPanel,
  type Authenticated,
  type PanelOrigin,
} from './auth.ts';
import { failureAnswer } from './failure.ts';
import { panelAssets, type PanelAssets } from './assets.ts';
import { htmlAnswer, plain, redirect, formOf, type PanelRequest, type PanelResponse } from './http.ts';
import { LoginLimiter } from './login-limits.ts';
import { logIn } from './login.ts';
import { loginPage } from './pages/login.ts';
import { pageRoutes, type Route } from './routes.ts';
import type { PanelSnapshots } from './snapshots.ts';
import { textsFor, type Texts } from './i18n/i18n.ts';

export interface PanelOptions {
  store: Store;
  origin: PanelOrigin;
  /** The API's PUBLIC_URL: what the Listings tab and the embed snippet point at. */
  publicUrl: string;
  keyPrefix: string;
  limiter?: LoginLimiter;
  /** Where "publish now" publishes; without it the Snapshots tab says how to publish from the CLI. */
  snapshots?: PanelSnapshots;
}

export type ResolvedPanelOptions = PanelOptions & { limiter: LoginLimiter };
export type PanelContext = ResolvedPanelOptions & { who: Authenticated; form: () => URLSearchParams; tx: Texts };

export function createPanelHandler(options: PanelOptions): (req: PanelRequest) => Promise<PanelResponse> {
  const opts: ResolvedPanelOptions = { ...options, limiter: options.limiter ?? new LoginLimiter() };
  const routes = pageRoutes();
  const assets = panelAssets();
  return async (req) => {
    try {
      return await answer(opts, routes, assets, req);
    } catch (err) {
      return failureAnswer(err);
    }
  };
}

async function answer(
  opts: ResolvedPanelOptions,
  routes: Route[],
  assets: PanelAssets,
  req: PanelRequest,
): Promise<PanelResponse> {
  const path = new URL(req.url, 'http://panel').pathname;
  const asset = assets(path, req);
  if (asset) return asset;
  const change = req.method !== 'GET' && req.method !== 'HEAD';
  // Every change, the login included, must come from a page of the panel itself.
  if (change && !fromPanel(req, opts.origin)) return notFromPanel(opts.origin);
  if (path === '/login') {
    if (req.method === 'POST') return logIn(opts, req);
    return htmlOrRedirect(await authenticate(opts.store, req, opts.origin), textsFor(req.headers['accept-language']));
  }
  const who = await authenticate(opts.store, req, opts.origin);
  if (!who) return change ? plain(401, 'Log in first.') : redirect('/login');
  let parsed: URLSearchParams | undefined;
  const form = () => (parsed ??= formOf(req));
  // The upload's token is in its multipart body, checked by the import route; every other change's is in its form.
  if (change && !isUploadRoute(req.method, path) && !csrfValid(form().get('csrf'), who.session))
    return plain(403, 'Refused: the form is out of date; reload the page.');
  if (path === '/logout' && req.method === 'POST') {
    await opts.store.endSession(who.session.digest);
    return redirect('/login', { 'set-cookie': clearedCookie(opts.origin) });
  }
  const context: PanelContext = { ...opts, who, form, tx: textsFor(req.headers['accept-language']) };
  for (const route of routes) {
    if (route.method !== (req.method === 'HEAD' ? 'GET' : req.method)) continue;
    const match = route.pattern.exec(path);
    if (match)
      return route.run(
        context,
        req,
        match.slice(1).map((p) => (p === undefined ? '' : decodeURIComponent(p))),
      );
  }
  return plain(404, 'No such page.');
}

function htmlOrRedirect(who: Authenticated | undefined, tx: Texts): PanelResponse {
  return who ? redirect('/') : htmlAnswer(loginPage(tx));
}
