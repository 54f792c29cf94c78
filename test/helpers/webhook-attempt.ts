// A delivery tried as the deliverer tries one, without a receiver: its endpoint claimed (its bytes fixed), the answer
// recorded as the retry schedule reads it, the claim given back. For tests of what follows a send: replay, the log.
import type { WebhookStore } from '../../server/store/webhook-store.ts';
import { outcomeOf } from '../../server/webhooks/schedule.ts';

const NODE = 'test-attempt';

export async function attempted(webhooks: WebhookStore, endpointId: string, deliveryId: number, code: number) {
  const now = Date.now();
  const claimed = await webhooks.claim(NODE, now, now + 60_000, 1000, (event) => event);
  try {
    if (!claimed.some((e) => e.id === endpointId)) throw new Error(`endpoint ${endpointId}: nothing due to claim`);
    await webhooks.recordAttempt(deliveryId, endpointId, outcomeOf({ code, error: null }, 0, now));
  } finally {
    for (const e of claimed) await webhooks.release(e.id, NODE, now);
  }
}
