// Who is asking: the session cookie (HttpOnly, SameSite=Strict, Secure over https), the device cookie a browser keeps
// once an operator logged in there, and whether a change came from the panel.
import { stringifySetCookie } from 'cookie';
import { timingSafeEqual } from 'node:crypto';
import { DEVICE_COOKIE_MS } from '../domain/device-cookies.ts';
import {
  needsTouch,
  PENDING_LOGIN_MS,
  SESSION_ABSOLUTE_MS,
  sessionComplete,
  sessionLive,
  tokenDigest,
  type SessionRow,
} from '../domain/sessions.ts';
import type { OperatorRow } from '../store/operators.ts';
import type { Store } from '../store/store.ts';
import { cookiesOf, plain, type PanelRequestHead } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';

export interface PanelOrigin {
  /** The panel's own origin, as browsers send it in Origin: `https://panel.example` or `http://127.0.0.1:8788`. */
  origin: string;
  secure: boolean;
}

export interface Authenticated {
  operator: OperatorRow;
  session: SessionRow;
}

/** `__Host-` over https: the browser then refuses the cookie from a subdomain or over plain http. */
export const cookieName = (o: PanelOrigin, base = 'listings_panel') => (o.secure ? `__Host-${base}` : base);

/** The login waiting for its two-factor code: a cookie of its own, so it can never pass for a session. */
const PENDING = 'listings_panel_pending';

const cookie = (base: string, value: string, maxAgeSeconds: number, o: PanelOrigin): string =>
  stringifySetCookie(cookieName(o, base), value, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    maxAge: maxAgeSeconds,
    secure: o.secure,
  });

export const sessionCookie = (token: string, o: PanelOrigin) =>
  cookie('listings_panel', token, SESSION_ABSOLUTE_MS / 1000, o);
export const clearedCookie = (o: PanelOrigin) => cookie('listings_panel', '', 0, o);
export const pendingCookie = (token: string, o: PanelOrigin) => cookie(PENDING, token, PENDING_LOGIN_MS / 1000, o);
export const clearedPendingCookie = (o: PanelOrigin) => cookie(PENDING, '', 0, o);

/** The browser's proof that an operator logged in here (domain/device-cookies.ts): kept across logouts, for months. */
const DEVICE = 'listings_panel_device';

export const deviceCookie = (value: string, o: PanelOrigin) => cookie(DEVICE, value, DEVICE_COOKIE_MS / 1000, o);
export const deviceCookieOf = (req: Pick<PanelRequestHead, 'headers'>, o: PanelOrigin): string | undefined =>
  cookiesOf(req)[cookieName(o, DEVICE)];

/** The token a cookie of the panel carries, when it has the shape of one. */
export function tokenOf(req: Pick<PanelRequestHead, 'headers'>, o: PanelOrigin, base = 'listings_panel') {
  const token = cookiesOf(req)[cookieName(o, base)];
  return token && TOKEN.test(token) ? token : undefined;
}

export const pendingTokenOf = (req: Pick<PanelRequestHead, 'headers'>, o: PanelOrigin) => tokenOf(req, o, PENDING);

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * The live session the cookie names, and its operator; an expired one is ended on sight, and so is one made without a
 * code for an account that has two-factor.
 */
export async function authenticate(
  store: Store,
  req: Pick<PanelRequestHead, 'headers'>,
  o: PanelOrigin,
): Promise<Authenticated | undefined> {
  const token = tokenOf(req, o);
  if (!token) return undefined;
  const session = await store.session(tokenDigest(token));
  if (!session) return undefined;
  const now = new Date();
  if (!sessionLive(session, now)) {
    await store.endSession(session.digest);
    return undefined;
  }
  const operator = await store.operator('id', session.operator_id);
  if (!operator) return undefined;
  if (!sessionComplete(session, operator.totp_enabled_at !== null)) {
    await store.endSession(session.digest);
    return undefined;
  }
  if (needsTouch(session, now)) await store.touchSession(session.digest, now);
  return { operator, session };
}

/** Origin (or, from browsers that omit it, Referer) names the panel itself: a cross-site form cannot pass. */
export function fromPanel(req: Pick<PanelRequestHead, 'headers'>, o: PanelOrigin): boolean {
  if (req.headers.origin !== undefined) return req.headers.origin === o.origin;
  try {
    return req.headers.referer !== undefined && new URL(req.headers.referer).origin === o.origin;
  } catch {
    return false;
  }
}

/** The refusal of a change whose Origin (or Referer) is not the panel's. */
export function notFromPanel(o: PanelOrigin): Answer {
  return plain(
    403,
    `Refused: this form did not come from the panel at ${o.origin}. Behind a proxy, start the panel with PANEL_URL set to the address the browser shows.`,
  );
}

/** The form's token is the session's own: a second check beside Origin and SameSite. */
export function csrfValid(token: string | null | undefined, session: SessionRow): boolean {
  if (!token) return false;
  const [a, b] = [Buffer.from(token), Buffer.from(session.csrf)];
  return a.length === b.length && timingSafeEqual(a, b);
}
