// The panel as a function from a request to an answer: login first, then pages and actions for one operator, each
// allowed to the roles its route names.
import { isUploadRoute } from './admission.ts';
import { authenticate, csrfValid, fromPanel, notFromPanel } from './auth.ts';
import { failureAnswer } from './failure.ts';
import { createLogger } from '../logger.ts';
import { panelAssets, type PanelAssets } from './assets.ts';
import { htmlAnswer, plain, redirect, formOf, type PanelRequest } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { LoginLimiter } from './login-limits.ts';
import { logIn } from './login.ts';
import { loginPage } from './pages/login.ts';
import { beyondRole } from './roles.ts';
import { pageRoutes } from './routes.ts';
import type { PanelOptions, ResolvedPanelOptions, Route } from './context.ts';
import { codePage, logInWithCode } from './two-factor.ts';
import { textsFor } from './i18n/i18n.ts';

export type { PanelOptions } from './context.ts';

export function createPanelHandler(options: PanelOptions): (req: PanelRequest) => Promise<Answer> {
  const opts: ResolvedPanelOptions = {
    ...options,
    limiter: options.limiter ?? new LoginLimiter(),
    now: options.now ?? Date.now,
    logger: options.logger ?? createLogger().logger,
  };
  const routes = pageRoutes();
  const assets = panelAssets();
  return async (req) => {
    try {
      return await answer(opts, routes, assets, req);
    } catch (err) {
      return failureAnswer(err, opts.logger);
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
): Promise<Answer> {
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
