// The panel as a function from a request to an answer: login first, then pages and actions for one operator, each
// allowed to the roles its route names.
import { randomUUID } from 'node:crypto';
import { isUploadRoute } from './admission.ts';
import { authenticate, csrfValid, fromPanel, notFromPanel } from './auth.ts';
import { failureAnswer } from './failure.ts';
import { createLogger } from '../logger.ts';
import { panelAssets, type PanelAssets } from './assets.ts';
import { htmlAnswer, plain, redirect, formOf, type PanelRequest } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { pathOf, Router, type Action, type Route as RouterRoute, type RouterAnswers } from '../http/router.ts';
import { LoginLimiter } from './login-limits.ts';
import { logIn } from './login.ts';
import { PasswordChecks } from './password-checks.ts';
import { loginPage } from './pages/login.ts';
import { beyondRole } from './roles.ts';
import { pageRoutes } from './routes.ts';
import type { PanelAction, PanelContext, PanelOptions, ResolvedPanelOptions, Route } from './context.ts';
import { codePage, logInWithCode } from './two-factor.ts';
import { textsFor } from './i18n/i18n.ts';

export type { PanelOptions } from './context.ts';

/** The panel's handler: one request in, its answer out. */
export interface PanelHandler {
  answer(req: PanelRequest): Promise<Answer>;
}

type Routed<C> = Router<C, Promise<Answer>, PanelRequest>;

/** A plain page for an unknown path or method, with the panel's security headers as every answer of it. */
const PANEL_ANSWERS: RouterAnswers<unknown, Promise<Answer>, PanelRequest> = {
  notFound: async () => plain(404, 'No such page.'),
  notAllowed: async (_req, allow) => plain(405, 'This page does not take that method.', { allow }),
};

export function createPanelHandler(options: PanelOptions): PanelHandler {
  const opts: ResolvedPanelOptions = {
    ...options,
    limiter: options.limiter ?? new LoginLimiter(),
    passwordChecks: options.passwordChecks ?? new PasswordChecks(),
    now: options.now ?? Date.now,
    logger: options.logger ?? createLogger().logger,
  };
  const door: Routed<ResolvedPanelOptions> = new Router(loginRoutes(), PANEL_ANSWERS);
  const routes: Routed<PanelContext> = new Router(pageRoutes().map(guarded), PANEL_ANSWERS);
  const assets = panelAssets();
  return {
    answer: async (req) => {
      const requestId = req.requestId ?? randomUUID();
      let answered: Answer;
      try {
        answered = await answer(opts, door, routes, assets, req);
      } catch (err) {
        answered = failureAnswer(err, opts.logger, { ...req, requestId });
      }
      // Every answer names its request, as the API's do: an operator quotes it, the log has it. (A copy: an asset's
      // headers are shared by its answers.)
      return { ...answered, headers: { ...answered.headers, 'x-request-id': requestId } };
    },
  };
}

/** What the panel answers before anyone has logged in. */
function loginRoutes(): RouterRoute<ResolvedPanelOptions, Promise<Answer>, PanelRequest>[] {
  return [
    {
      path: '/login',
      methods: {
        GET: async (req, _path, _search, opts) =>
          (await authenticate(opts.store, req, opts.origin))
            ? redirect('/')
            : htmlAnswer(loginPage(textsFor(req.headers['accept-language']))),
        POST: (req, _path, _search, opts) => logIn(opts, req),
      },
    },
    {
      path: '/login/code',
      methods: {
        GET: (req, _path, _search, opts) => codePage(opts, req),
        POST: (req, _path, _search, opts) => logInWithCode(opts, req),
      },
    },
  ];
}

/** A route whose actions run only for a role they allow, and before two-factor enrolment only where they say so. */
function guarded(route: Route): RouterRoute<PanelContext, Promise<Answer>, PanelRequest> {
  const methods = Object.entries(route.methods).map(([method, action]) => [method, guard(action)]);
  return { path: route.path, methods: Object.fromEntries(methods) };
}

function guard(action: PanelAction): Action<PanelContext, Promise<Answer>, PanelRequest> {
  return async (req, path, _search, c, params) => {
    const change = req.method !== 'GET' && req.method !== 'HEAD';
    // An account with two-factor has complete sessions only (authenticate ends the others): one without is held here.
    if (c.require2fa && !c.who.operator.totp_enabled_at && !action.beforeEnrolment)
      return change ? plain(403, 'Refused: set up two-factor login first.') : redirect('/account/2fa');
    // Beyond the operator's role nothing runs, and the refusal is in the audit log.
    const refusal = await beyondRole(c.store, c.who, { method: req.method, path }, action.role);
    return refusal ?? action.run(c, req, params);
  };
}

async function answer(
  opts: ResolvedPanelOptions,
  door: Routed<ResolvedPanelOptions>,
  routes: Routed<PanelContext>,
  assets: PanelAssets,
  req: PanelRequest,
): Promise<Answer> {
  const path = pathOf(req.url);
  const asset = assets(path, req);
  if (asset) return asset;
  // A method the page does not take changes nothing: its 405 and Allow come before the checks that guard changes.
  const allow = (door.has(path) ? door : routes).refusedMethod(req.method, path);
  if (allow !== undefined) return PANEL_ANSWERS.notAllowed(req, allow, undefined);
  const change = req.method !== 'GET' && req.method !== 'HEAD';
  // Every change, the login included, must come from a page of the panel itself.
  if (change && !fromPanel(req, opts.origin)) return notFromPanel(opts.origin);
  if (door.has(path)) return door.answer(req, opts);
  const who = await authenticate(opts.store, req, opts.origin);
  if (!who) return change ? plain(401, 'Log in first.') : redirect('/login');
  let parsed: URLSearchParams | undefined;
  const form = () => (parsed ??= formOf(req));
  // The upload's token is in its multipart body, checked by the import route; every other change's is in its form.
  if (change && !isUploadRoute(req.method, path) && !csrfValid(form().get('csrf'), who.session))
    return plain(403, 'Refused: the form is out of date; reload the page.');
  return routes.answer(req, { ...opts, who, form, tx: textsFor(req.headers['accept-language']) });
}
