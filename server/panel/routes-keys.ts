// The API tab's actions: generate (the key shown once), edit, revoke after a confirmation. The CLI's store calls, audited.
import { readKeyForm, type KeyFormFields } from '../../shared/key-limits.ts';
import { ListingsError } from '../errors.ts';
import { keyRevoked, type KeyLimits } from '../store/keys.ts';
import type { PanelContext } from './context.ts';
import type { Params } from '../http/router.ts';
import { htmlAnswer, jsonAnswer, plain, redirect, type PanelRequest } from './http.ts';
import type { Answer } from '../http/transport/answer.ts';
import { keyPath, keyRevokedBody, keyShownBody, keyState, newKeyBody, revokeConfirmBody } from './pages/keys.ts';
import { facilityPath, tabbed } from './pages/facility.ts';
import { panelPage } from './pages/layout.ts';
import type { Route } from './context.ts';
import { problemOf } from './failure.ts';
import { facility } from './routes-facility.ts';

const KEY = '/keys/:key(key_[A-Za-z0-9]{1,64})';

/** The key form's fields as typed (absent ones empty), to read by the rules or to show again when refused. */
function fieldsOf(form: URLSearchParams): Required<KeyFormFields> {
  const get = (name: string) => form.get(name) ?? '';
  return { label: get('label'), ref: get('ref'), origins: get('origins'), rate: get('rate'), burst: get('burst') };
}

/** The form's label, origins, rate and burst by the rules the panel's script checks them with (empty: the default). */
function limitsOf(fields: KeyFormFields): KeyLimits & { label: string } {
  const read = readKeyForm(fields);
  if (!read.ok) {
    const problems = Object.entries(read.problems).map(([field, problem]) => `${field}: ${problem}`);
    throw new ListingsError('invalid_key_limit', problems.join('; '));
  }
  return read.limits;
}

async function keyOf(c: PanelContext, id: string) {
  return (await c.store.listKeys()).find((k) => k.id === id);
}

export function keyRoutes(facilityRoute: string): Route[] {
  return [
    { path: `${facilityRoute}/keys`, methods: { POST: { role: 'manager', run: createKey } } },
    {
      path: `${KEY}/revoke`,
      methods: { GET: { role: 'manager', run: revokePage }, POST: { role: 'manager', run: revoke } },
    },
    { path: KEY, methods: { POST: { role: 'manager', run: editKey } } },
    { path: `${KEY}/new`, methods: { GET: { role: 'manager', run: newKeyPage } } },
  ];
}

async function createKey(c: PanelContext, req: PanelRequest, { id }: Params): Promise<Answer> {
  const fields = fieldsOf(c.form());
  let created;
  try {
    const limits = limitsOf(fields);
    created = await c.store.createKey({ facilityId: id!, prefix: c.keyPrefix, ...limits }, c.who.operator.email);
  } catch (err) {
    // Refused (a bad value, a ref taken): the tab again, the message above a form holding what was typed.
    return facility(c, req, { id: id!, tab: 'api' }, { problem: problemOf(err), fields });
  }
  // Post/Redirect/Get: a reload of the key's page makes no second key, and shows this one no more.
  const { key, info } = created;
  await c.store.keepShownOnce(c.who.session.digest, shownKey(info.id), key, new Date(c.now()));
  return redirect(keyPath(info, '/new'));
}

const shownKey = (keyId: string) => `key:${keyId}`;

/** The new key and its snippet, the one time they are shown; after that, 410 and why. */
async function newKeyPage(c: PanelContext, _req: PanelRequest, { key: id }: Params): Promise<Answer> {
  const info = await keyOf(c, id!);
  if (!info) return plain(404, 'No such key.');
  const key = await c.store.takeShownOnce(c.who.session.digest, shownKey(info.id), new Date(c.now()));
  const shown = key ? newKeyBody(c.tx, info.facility_id, key, info, c.publicUrl) : keyShownBody(c.tx, info.facility_id);
  // The facility's name stays the heading, as on its tabs: the new key is one of its keys.
  const name = (await c.store.facilityHead(info.facility_id))?.name ?? info.facility_id;
  return htmlAnswer(panelPage(c.tx, name, tabbed(c.tx, info.facility_id, 'api', shown), c.who), key ? 200 : 410);
}

async function revokePage(c: PanelContext, _req: PanelRequest, { key }: Params): Promise<Answer> {
  const k = await keyOf(c, key!);
  if (!k) return plain(404, 'No such key.');
  // Revoked already: nothing to confirm (a POST would change nothing), so say so rather than ask.
  if (k.revoked_at)
    return htmlAnswer(panelPage(c.tx, c.tx.t.revokeTitle, keyRevokedBody(c.tx, k, keyRevoked(k).message), c.who), 409);
  return htmlAnswer(panelPage(c.tx, c.tx.t.revokeTitle, revokeConfirmBody(c.tx, c.who, k), c.who));
}

async function revoke(c: PanelContext, req: PanelRequest, { key }: Params): Promise<Answer> {
  const info = await c.store.revokeKey(key!, c.who.operator.email);
  // <panel-revoke> asks for JSON, to mark the row in place; a plain form goes back to the API tab.
  if ((req.headers.accept ?? '').includes('application/json'))
    return jsonAnswer({ id: info.id, revoked_at: info.revoked_at, state: keyState(c.tx, info) });
  return redirect(facilityPath(info.facility_id, 'api'));
}

async function editKey(c: PanelContext, req: PanelRequest, { key }: Params): Promise<Answer> {
  const k = await keyOf(c, key!);
  if (!k) return plain(404, 'No such key.');
  const fields = fieldsOf(c.form());
  try {
    await c.store.updateKey(k.id, limitsOf(fields), c.who.operator.email);
  } catch (err) {
    return facility(c, req, { id: k.facility_id, tab: 'api' }, { keyId: k.id, problem: problemOf(err), fields });
  }
  return redirect(facilityPath(k.facility_id, 'api'));
}
