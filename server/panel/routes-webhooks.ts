// A key's webhooks in the panel: the page, and the actions the CLI's `webhooks` commands take, audited as the operator.
import { checkEventTypes } from '../domain/webhook-events.ts';
import { ListingsError } from '../errors.ts';
import { checkEndpointUrl } from '../webhooks/address.ts';
import type { PanelContext, Route } from './context.ts';
import type { Params } from '../http/router.ts';
import { htmlAnswer, plain, redirect } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { panelPage } from './pages/layout.ts';
import { secretBody, secretShownBody, webhooksBody, webhooksPath, type RefusedEndpoint } from './pages/webhooks.ts';
import { problemOf } from './failure.ts';
import { webhookTexts } from './i18n/webhooks.ts';
import type { EndpointInfo } from '../store/webhook-endpoints.ts';

const KEY = '/keys/:key(key_[A-Za-z0-9]{1,64})/webhooks';
const ENDPOINT = '/webhooks/:endpoint(whe_[0-9a-f]{20})';
/** Deliveries shown per endpoint: the newest, below the one first in its line. */
const LOG_SHOWN = 20;

async function keyOf(c: PanelContext, id: string) {
  return (await c.store.listKeys()).find((k) => k.id === id);
}

async function page(
  c: PanelContext,
  keyId: string,
  refused?: RefusedEndpoint,
  actionProblem?: string,
): Promise<Answer> {
  const key = await keyOf(c, keyId);
  if (!key) return plain(404, 'No such key.');
  const endpoints = await c.store.webhooks.list(key.id);
  const logs = await Promise.all(endpoints.map((e) => c.store.webhooks.deliveryLog(e.id, LOG_SHOWN)));
  const body = webhooksBody(
    c.tx,
    c.who,
    key,
    endpoints.map((endpoint, i) => ({ endpoint, log: logs[i]! })),
    refused,
    actionProblem,
  );
  const title = webhookTexts(c.tx.lang).title(`${key.label || c.tx.t.unlabelled} …${key.hint}`);
  return htmlAnswer(panelPage(c.tx, title, body, c.who), refused || actionProblem ? 400 : 200);
}

const shownSecret = (endpointId: string) => `webhook:${endpointId}`;

/**
 * Post/Redirect/Get for a new secret (an endpoint added, a secret rotated): kept for this session to read once, and
 * a 303 to the page that shows it, so that a reload rotates nothing and shows the secret no more.
 */
async function showSecretOnce(c: PanelContext, e: EndpointInfo, secret: string): Promise<Answer> {
  await c.store.keepShownOnce(c.who.session.digest, shownSecret(e.id), secret, new Date(c.now()));
  return redirect(`/webhooks/${e.id}/secret`);
}

/** The endpoint's new secret, the one time it is shown; after that, 410 and why. */
async function secretPage(c: PanelContext, _req: unknown, { endpoint: id }: Params): Promise<Answer> {
  const endpoint = (await c.store.webhooks.list()).find((e) => e.id === id);
  if (!endpoint) return plain(404, 'No such endpoint.');
  const secret = await c.store.takeShownOnce(c.who.session.digest, shownSecret(endpoint.id), new Date(c.now()));
  const body = secret ? secretBody(c.tx, endpoint, secret) : secretShownBody(c.tx, endpoint);
  return htmlAnswer(panelPage(c.tx, webhookTexts(c.tx.lang).secretTitle, body, c.who), secret ? 200 : 410);
}

/**
 * Runs an endpoint's action, then shows its key's page again; a refusal (a form left open while the key was revoked)
 * is said on that page.
 */
const onEndpoint =
  (act: (c: PanelContext, id: string, actor: string) => Promise<unknown>) =>
  async (c: PanelContext, _req: unknown, { endpoint: id }: Params): Promise<Answer> => {
    const endpoint = (await c.store.webhooks.list()).find((e) => e.id === id);
    if (!endpoint) return plain(404, 'No such endpoint.');
    try {
      await act(c, endpoint.id, c.who.operator.email);
    } catch (err) {
      return page(c, endpoint.key_id, undefined, problemOf(err));
    }
    return redirect(webhooksPath(endpoint.key_id));
  };

export function webhookRoutes(): Route[] {
  return [
    {
      path: KEY,
      methods: {
        GET: { role: 'viewer', run: (c, _req, { key }) => page(c, key!) },
        POST: { role: 'manager', run: addEndpoint },
      },
    },
    { path: `${ENDPOINT}/rotate`, methods: { POST: { role: 'manager', run: rotate } } },
    { path: `${ENDPOINT}/secret`, methods: { GET: { role: 'manager', run: secretPage } } },
    {
      path: `${ENDPOINT}/test`,
      methods: { POST: { role: 'manager', run: onEndpoint((c, id, who) => c.store.webhooks.sendTest(id, who)) } },
    },
    {
      path: `${ENDPOINT}/enable`,
      methods: { POST: { role: 'manager', run: onEndpoint((c, id, who) => c.store.webhooks.enable(id, who)) } },
    },
    {
      path: `${ENDPOINT}/remove`,
      methods: { POST: { role: 'manager', run: onEndpoint((c, id, who) => c.store.webhooks.remove(id, who)) } },
    },
    { path: '/deliveries/:delivery(\\d{1,15})/replay', methods: { POST: { role: 'manager', run: replay } } },
  ];
}

async function addEndpoint(c: PanelContext, _req: unknown, { key }: Params): Promise<Answer> {
  const form = c.form();
  const url = form.get('url') ?? '';
  const events = form.getAll('events');
  try {
    if (events.length === 0)
      throw new ListingsError('invalid_events', `${webhookTexts(c.tx.lang).events}: choose at least one`);
    // The same rules as `webhooks add`: the panel's --webhooks-allow-private (or WEBHOOKS_ALLOW_PRIVATE) as its flag.
    const checked = checkEndpointUrl(url, c.webhooksAllowPrivate ?? false);
    const { endpoint, secret } = await c.store.webhooks.add(
      { keyId: key!, url: checked, events: eventsOf(c, events) },
      c.who.operator.email,
    );
    return await showSecretOnce(c, endpoint, secret);
  } catch (err) {
    // The CLI's wording names its flags; the form names its fields.
    const problem = problemOf(err)
      .replace(/^--url: /, `${webhookTexts(c.tx.lang).url}: `)
      .replace(/^--key: /, '');
    return page(c, key!, { problem, url, events });
  }
}

/** The form's event types by the CLI's rule (checkEventTypes), a refusal naming the field as the form does. */
function eventsOf(c: PanelContext, events: readonly string[]) {
  try {
    return checkEventTypes(events);
  } catch (err) {
    throw new ListingsError('invalid_events', `${webhookTexts(c.tx.lang).events}: ${problemOf(err)}`);
  }
}

async function rotate(c: PanelContext, _req: unknown, { endpoint: id }: Params): Promise<Answer> {
  const { endpoint, secret } = await c.store.webhooks.rotate(id!, c.who.operator.email);
  return showSecretOnce(c, endpoint, secret);
}

/** Sends a delivery again; a refusal (one not sent yet, its key revoked) is said on its key's page, as onEndpoint does. */
async function replay(c: PanelContext, req: unknown, { delivery }: Params): Promise<Answer> {
  const d = await c.store.webhooks.delivery(Number(delivery));
  if (!d) return plain(404, 'No such delivery.');
  return onEndpoint((ctx, _id, who) => ctx.store.webhooks.replay(d.id, who))(c, req, { endpoint: d.endpoint_id });
}
