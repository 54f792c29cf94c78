// GET /healthz for load balancers: 200 only while this node can serve fresh answers, 503 while it refuses them.
import type { Answer } from '../transport/answer.ts';
import type { Freshness } from '../../freshness/freshness.ts';

const HEADERS = { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' };

export function healthOf(freshness: Freshness): Answer {
  return freshness.fresh
    ? { status: 200, headers: { ...HEADERS }, body: 'ok\n' }
    : { status: 503, headers: { ...HEADERS, 'retry-after': '5' }, body: 'database unavailable\n' };
}
