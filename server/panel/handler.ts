// The panel as a function from a request to an answer: login first, then pages and actions for one operator, each
// allowed to the roles its route names.
import type { Store } from '../store/store.ts';
import { isUploadRoute } from './admission.ts';
import { authenticate, csrfValid, fromPanel, notFromPanel, type Authenticated, type PanelOrigin } from './auth.ts';
import { failureAnswer } from './failure.ts';
import { panelAssets, type PanelAssets } from './assets.ts';
import { htmlAnswer, plain, redirect, formOf, type PanelRequest, type PanelResponse } from './http.ts';
import { LoginLimiter } from './login-limits.ts';
import { logIn } from './login.ts';
import { loginPage } from './pages/login.ts';
import { beyondRole } from './roles.ts';
import { pageRoutes, type Route } from './routes.ts';
import type { PanelSnapshots } from './snapshots.ts';
import { codePage, logInWithCode } from './two-factor.ts';
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
  /** PANEL_REQUIRE_2FA=1: an operator without two-factor login reaches nothing but its enrolment. */
  require2fa?: boolean;
  /** Milliseconds since the epoch: the clock two-factor codes and pending logins are checked against. */
  now?: () => number;
}

export type ResolvedPanelOptions = PanelOptions & { limiter: LoginLimiter; now: () => number };
export type PanelContext = ResolvedPanelOptions & { who: Authenticated; form: () => URLSearchParams; tx: Texts };

export function createPanelHandler(options: PanelOptions): (req: PanelRequest) => Promise<PanelResponse> {
  const opts: ResolvedPanelOptions = {
    ...options,
    limiter: options.limiter ?? new LoginLimiter(),
    now: options.now ?? Date.now,
  };
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

/** The route a request names, and its parameters; undefined for no route. */
export function routeOf(routes: readonly Route[], method: string, path: string) {
  for (const route of routes) {
    if (route.method !== (method === 'HEAD' ? 'GET' : method)) continue;
    const match = route.pattern.exec(path);
    if (match) return { route, params: match.slice(1).map((p) => (p === undefined ? '' : decodeURIComponent(p))) };
  }
  return undefined;
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
  const tx = textsFor(req.headers['accept-language']);
  if (path === '/login') {
    if (change) return logIn(opts, req);
    return (await authenticate(opts.store, req, opts.origin)) ? redirect('/') : htmlAnswer(loginPage(tx));
  }
  if (path === '/login/code') return change ? logInWithCode(opts, req) : codePage(opts, req);
  const who = await authenticate(opts.store, req, opts.origin);
  if (!who) return change ? plain(401, 'Log in first.') : redirect('/login');
  let parsed: URLSearchParams | undefined;
  const form = () => (parsed ??= formOf(req));
  // The upload's token is in its multipart body, checked by the import route; every other change's is in its form.
  if (change && !isUploadRoute(req.method, path) && !csrfValid(form().get('csrf'), who.session))
    return plain(403, 'Refused: the form is out of date; reload the page.');
  const found = routeOf(routes, req.method, path);
  if (!found) return plain(404, 'No such page.');
  const { route, params } = found;
  if (opts.require2fa && !who.operator.totp_enabled_at && !route.beforeEnrolment)
    return change ? plain(403, 'Refused: set up two-factor login first.') : redirect('/account/2fa');
  // Beyond the operator's role nothing runs, and the refusal is in the audit log.
  const refusal = await beyondRole(opts.store, who, { method: req.method, path }, route.role);
  return refusal ?? route.run({ ...opts, who, form, tx }, req, params);
}
