// The `--key` and `--endpoint` filters of `webhooks list` and `webhooks deliveries`: an id that names nothing is a
// mistake in the command line, reported as the commands that act on a key or an endpoint report it, not an empty
// table that reads as "none yet".
import type { Store } from '../server/store/store.ts';
import { unknownKey } from '../server/store/keys.ts';
import { unknownEndpoint } from '../server/store/webhook-endpoints.ts';

/** Refuses a `--key` naming no key (revoked ones are keys still: their endpoints are listed as stopped). */
export async function checkKeyFilter(store: Store, keyId: string | undefined): Promise<void> {
  if (keyId !== undefined && !(await store.listKeys()).some((k) => k.id === keyId)) throw unknownKey(keyId);
}

/** Refuses an `--endpoint` naming no endpoint. */
export async function checkEndpointFilter(store: Store, endpointId: string | undefined): Promise<void> {
  if (endpointId !== undefined && !(await store.webhooks.list()).some((e) => e.id === endpointId))
    throw unknownEndpoint(endpointId);
}
