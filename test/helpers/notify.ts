// Whether NOTIFY wakes a node on PostgreSQL: a revoke committed elsewhere reaches its mirror with no request made.
import pg from 'pg';
import { Freshness } from '../../server/freshness/freshness.ts';
import { createLogger } from '../../server/logger.ts';
import { startPgNode } from '../../server/pg-node.ts';
import { openStore } from '../../server/store/store.ts';
import { demoImport } from './fixture.ts';
import { until } from './wait.ts';

/**
 * The demo data and a key in a new database `storeUrl`, a node on `nodeUrl` (the same database, directly or through a
 * pooler) that has started listening, then a revoke through the store: resolves once the node's mirror holds it, to the
 * times the node dropped its caches since. `adminUrl` (the server, directly) sees the node's LISTEN in pg_stat_activity.
 */
export async function revokeWithoutRequest(o: {
  nodeUrl: string;
  storeUrl: string;
  adminUrl: string;
}): Promise<number> {
  const store = await openStore(o.storeUrl);
  const watcher = new pg.Client(o.adminUrl);
  await watcher.connect();
  let node: Awaited<ReturnType<typeof startPgNode>> | undefined;
  try {
    await store.applyImport(demoImport());
    const { info } = await store.createKey({ facilityId: 'wro-1', prefix: 'svc' });
    node = await startPgNode(o.nodeUrl);
    const freshness = new Freshness(node.db);
    let dropped = 0;
    freshness.onChange(() => dropped++);
    // The node's hook over the freshness a handler would share; no request is made, so the hook is never awaited.
    node.beforeBatch(freshness, createLogger({ write: () => {} }).logger);
    // On its own database: other nodes of the same server (another test's) listen on theirs.
    const database = decodeURIComponent(new URL(o.storeUrl).pathname.slice(1));
    await until('the node listening', async () => {
      const r = await watcher.query(
        "SELECT 1 FROM pg_stat_activity WHERE application_name = 'storage-listings listen' AND query LIKE 'LISTEN%' AND datname = $1",
        [database],
      );
      return (r.rowCount ?? 0) > 0;
    });
    const revokedAt = () =>
      node!.db
        .prepare<[string], { revoked_at: string | null }>('SELECT revoked_at FROM api_keys WHERE id = ?')
        .get(info.id)?.revoked_at;
    const before = dropped;
    await store.revokeKey(info.id);
    await until('the mirror to hold the revoke', () => revokedAt() != null);
    return dropped - before;
  } finally {
    await watcher.end();
    await node?.close();
    await store.close();
  }
}
