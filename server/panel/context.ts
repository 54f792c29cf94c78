// What every part of the panel shares: its options, the context of a logged-in request, and the shape of a route.
import type { Role } from '../domain/roles.ts';
import type { Store } from '../store/store.ts';
import type { Logger } from '../logger.ts';
import type { Authenticated, PanelOrigin } from './auth.ts';
import type { PanelRequest } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import type { Method, Params } from '../http/router.ts';
import type { Texts } from './i18n/i18n.ts';
import type { LoginLimiter } from './login-limits.ts';
import type { PasswordChecks } from './password-checks.ts';
import type { PanelSnapshots } from './snapshots.ts';

export interface PanelOptions {
  store: Store;
  origin: PanelOrigin;
  /** The API's PUBLIC_URL: what the Listings tab and the embed snippet point at. */
  publicUrl: string;
  keyPrefix: string;
  limiter?: LoginLimiter;
  /** The panel's cap on password checks running at once, for every login it answers. */
  passwordChecks?: PasswordChecks;
  /** Where failures are logged, with their stacks; a logger of its own (stdout) when not given. */
  logger?: Logger;
  /** Where "publish now" publishes; without it the Snapshots tab says how to publish from the CLI. */
  snapshots?: PanelSnapshots;
  /** PANEL_REQUIRE_2FA=1: an operator without two-factor login reaches nothing but its enrolment. */
  require2fa?: boolean;
  /** Endpoints may name loopback and private addresses (`--webhooks-allow-private`, for development and tests). */
  webhooksAllowPrivate?: boolean;
  /** Milliseconds since the epoch: the clock two-factor codes and pending logins are checked against. */
  now?: () => number;
}

export type ResolvedPanelOptions = PanelOptions & {
  limiter: LoginLimiter;
  passwordChecks: PasswordChecks;
  now: () => number;
  logger: Logger;
};
export type PanelContext = ResolvedPanelOptions & { who: Authenticated; form: () => URLSearchParams; tx: Texts };

/** One method of a panel route: who may use it, and what it does. */
export interface PanelAction {
  /** The least role that may use it (the handler refuses the rest): viewer reads, manager changes data and keys. */
  role: Role;
  /** Reachable before two-factor enrolment when the panel requires it: the enrolment itself and logging out. */
  beforeEnrolment?: boolean;
  run(ctx: PanelContext, req: PanelRequest, params: Params): Promise<Answer>;
}

/** A path in the router's syntax (`/facilities/:id`) and its methods. */
export interface Route {
  path: string;
  methods: Partial<Record<Method, PanelAction>>;
}
