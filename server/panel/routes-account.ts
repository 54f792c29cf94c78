// The account routes: the operator's own page, ending its other sessions, two-factor enrolment, logging out, and the
// owners' page of every account's role.
import { parseRole } from '../domain/roles.ts';
import { newRecoveryCodes, newTotpSecret, recoveryDigest, totpStepOf, totpUri } from '../domain/totp.ts';
import { accountAudit } from '../store/audit.ts';
import { clearedCookie } from './auth.ts';
import type { PanelContext } from './context.ts';
import { htmlAnswer, redirect } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { accountTexts } from './i18n/accounts.ts';
import { accountBody, operatorsBody } from './pages/account.ts';
import { problemOf } from './failure.ts';
import { alreadyOnBody, enrolBody, recoveryBody } from './pages/enrol.ts';
import { panelPage } from './pages/layout.ts';
import type { Route } from './context.ts';

/** The name authenticator apps list the account under, beside the operator's email. */
const ISSUER = 'storage-listings';

export function accountRoutes(): Route[] {
  return [
    { path: '/account', methods: { GET: { role: 'viewer', run: async (c) => account(c) } } },
    { path: '/account/sessions', methods: { POST: { role: 'viewer', run: endOtherSessions } } },
    {
      path: '/account/2fa',
      methods: {
        GET: { role: 'viewer', beforeEnrolment: true, run: startEnrolment },
        POST: { role: 'viewer', beforeEnrolment: true, run: confirmEnrolment },
      },
    },
    { path: '/logout', methods: { POST: { role: 'viewer', beforeEnrolment: true, run: logOut } } },
    { path: '/operators', methods: { GET: { role: 'owner', run: async (c) => operators(c) } } },
    { path: '/operators/role', methods: { POST: { role: 'owner', run: changeRole } } },
  ];
}

function account(c: PanelContext, done?: string): Answer {
  return htmlAnswer(panelPage(c.tx, accountTexts(c.tx.lang).account, accountBody(c.tx, c.who, done), c.who));
}

async function endOtherSessions(c: PanelContext): Promise<Answer> {
  const { id, email } = c.who.operator;
  await c.store.endSessionsOf(id, c.who.session.digest);
  await c.store.appendAudit([accountAudit('logout.everywhere', email, email)]);
  return account(c, accountTexts(c.tx.lang).othersEnded);
}

async function logOut(c: PanelContext): Promise<Answer> {
  await c.store.endSession(c.who.session.digest);
  return redirect('/login', { 'set-cookie': clearedCookie(c.origin) });
}

async function enrolPage(c: PanelContext, secret: string, wrong: boolean): Promise<Answer> {
  const uri = totpUri(secret, c.who.operator.email, ISSUER);
  const body = await enrolBody(c.tx, c.who, uri, { required: Boolean(c.require2fa), wrong });
  return htmlAnswer(panelPage(c.tx, accountTexts(c.tx.lang).setUp2fa, body, c.who), wrong ? 400 : 200);
}

/** A new secret on each visit until a first code confirms one: a key that was shown and never confirmed is dropped. */
async function startEnrolment(c: PanelContext): Promise<Answer> {
  if (c.who.operator.totp_enabled_at) return alreadyOn(c);
  const secret = newTotpSecret();
  await c.store.startEnrolment(c.who.operator.id, secret);
  return enrolPage(c, secret, false);
}

async function confirmEnrolment(c: PanelContext): Promise<Answer> {
  const operator = await c.store.operator('id', c.who.operator.id);
  if (!operator || operator.totp_enabled_at) return alreadyOn(c);
  if (!operator.totp_secret) return redirect('/account/2fa');
  const step = totpStepOf(operator.totp_secret, (c.form().get('code') ?? '').trim(), c.now());
  if (step === undefined) return enrolPage(c, operator.totp_secret, true);
  const codes = newRecoveryCodes();
  const enrolling = c.who.session.digest;
  const enrolment = {
    operatorId: operator.id,
    enrolling,
    step,
    digests: codes.map(recoveryDigest),
    actor: operator.email,
  };
  if (!(await c.store.enableTwoFactor(enrolment))) return alreadyOn(c);
  const body = recoveryBody(c.tx, codes);
  return htmlAnswer(panelPage(c.tx, accountTexts(c.tx.lang).recoveryCodes, body, c.who));
}

function alreadyOn(c: PanelContext): Answer {
  return htmlAnswer(panelPage(c.tx, accountTexts(c.tx.lang).twoFactor, alreadyOnBody(c.tx), c.who));
}

/** Every account and its role; a refused change (`problem`) above them, as a 400. */
async function operators(c: PanelContext, problem?: string): Promise<Answer> {
  const body = operatorsBody(c.tx, c.who, await c.store.listOperators(), problem);
  return htmlAnswer(panelPage(c.tx, accountTexts(c.tx.lang).operators, body, c.who), problem ? 400 : 200);
}

/**
 * A new role ends the account's sessions (its own, when an owner changes their own role: then to the login). A refusal
 * (the last owner, an unknown role or email) is shown on the operators page, as the key forms show theirs.
 */
async function changeRole(c: PanelContext): Promise<Answer> {
  const form = c.form();
  try {
    const role = parseRole(form.get('role') ?? '');
    const info = await c.store.setOperatorRole(form.get('email') ?? '', role, c.who.operator.email);
    return redirect(info.id === c.who.operator.id ? '/login' : '/operators');
  } catch (err) {
    return operators(c, problemOf(err));
  }
}
