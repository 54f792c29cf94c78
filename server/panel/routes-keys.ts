// The API tab's actions: generate (the key shown once), edit, revoke after a confirmation. The CLI's store calls, audited.
import { parseOrigin, parseRate } from '../domain/key-limits.ts';
import type { KeyLimits } from '../store/keys.ts';
import type { PanelContext } from './handler.ts';
import { htmlAnswer, plain, redirect, type PanelResponse } from './http.ts';
import { newKeyBody, revokeConfirmBody } from './pages/keys.ts';
import { facilityPath, tabbed } from './pages/facility.ts';
import { panelPage } from './pages/layout.ts';
import { facility, problemOf, type Route } from './routes.ts';

const KEY = '/keys/(key_[A-Za-z0-9]{1,64})';

/** The form's label, origins (one per line or comma) and rate (empty: the server default). */
function limitsOf(form: URLSearchParams): KeyLimits & { label: string } {
  const origins = (form.get('origins') ?? '').split(/[\s,]+/).filter(Boolean);
  const rate = (form.get('rate') ?? '').trim();
  return {
    label: (form.get('label') ?? '').trim().slice(0, 200),
    allowed_origins: origins.map(parseOrigin),
    rate_per_s: rate === '' ? null : parseRate(rate),
    ...(rate === '' ? { burst: null } : {}),
  };
}

async function keyOf(c: PanelContext, id: string) {
  return (await c.store.listKeys()).find((k) => k.id === id);
}

export function keyRoutes(facilityPattern: string): Route[] {
  return [
    {
      method: 'POST',
      pattern: new RegExp(`^${facilityPattern}/keys$`),
      run: async (c, req, [id]) => {
        let limits;
        try {
          limits = limitsOf(c.form());
        } catch (err) {
          return facility(c, req, [id!, 'api'], problemOf(err));
        }
        const { key, info } = await c.store.createKey(
          { facilityId: id!, prefix: c.keyPrefix, ...limits },
          c.who.operator.email,
        );
        const body = tabbed(c.tx, id!, 'api', newKeyBody(c.tx, id!, key, info, c.publicUrl));
        return htmlAnswer(panelPage(c.tx, c.tx.t.newKey, body, c.who));
      },
    },
    {
      method: 'GET',
      pattern: new RegExp(`^${KEY}/revoke$`),
      run: async (c, _req, [id]) => {
        const k = await keyOf(c, id!);
        if (!k) return plain(404, 'No such key.');
        return htmlAnswer(panelPage(c.tx, c.tx.t.revokeTitle, revokeConfirmBody(c.tx, c.who, k), c.who));
      },
    },
    {
      method: 'POST',
      pattern: new RegExp(`^${KEY}/revoke$`),
      run: async (c, _req, [id]) => {
        const info = await c.store.revokeKey(id!, c.who.operator.email);
        return redirect(facilityPath(info.facility_id, 'api'));
      },
    },
    { method: 'POST', pattern: new RegExp(`^${KEY}$`), run: editKey },
  ];
}

async function editKey(c: PanelContext, req: Parameters<Route['run']>[1], [id]: string[]): Promise<PanelResponse> {
  const k = await keyOf(c, id!);
  if (!k) return plain(404, 'No such key.');
  try {
    await c.store.updateKey(k.id, limitsOf(c.form()), c.who.operator.email);
  } catch (err) {
    return facility(c, req, [k.facility_id, 'api'], problemOf(err));
  }
  return redirect(facilityPath(k.facility_id, 'api'));
}
