// PgBouncer in front of PostgreSQL (issue 26). Session mode, the supported one: `listings serve` and the CLI through it
// serve keyed requests, an import and a revoke from the next request, and NOTIFY still wakes a node. Transaction mode,
// not supported, and why: NOTIFY never reaches the node's LISTEN, and prepared statements clash on shared connections.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgNode } from '../server/pg-node.ts';
import { listenForChanges } from '../server/store/pg/listen.ts';
import { openStore } from '../server/store/store.ts';
import {
  cli,
  DEMO_DATA,
  demoImport,
  demoJson,
  freePort,
  grossOfM07,
  spawnServer,
  tempDir,
  writeJson,
} from './helpers/fixture.ts';
import { revokeWithoutRequest } from './helpers/notify.ts';
import { startPgBouncer, type PgBouncer } from './helpers/pgbouncer.ts';
import { startPostgres, type PgServer } from './helpers/postgres.ts';
import { until } from './helpers/wait.ts';

let server: PgServer;
let session: PgBouncer;
beforeAll(async () => {
  server = await startPostgres();
  session = await startPgBouncer(server, { mode: 'session' });
});
afterAll(async () => {
  await session?.close();
  await server?.close();
});

describe('through PgBouncer in session mode', () => {
  let env: NodeJS.ProcessEnv;
  let serve: ReturnType<typeof spawnServer>;
  let base: string;
  let dir: string;
  let cleanup: () => void;
  const run = (args: string[]) => {
    const r = cli(args, { env });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout;
  };
  const list = (key: string) => fetch(`${base}/external/listings`, { headers: { 'x-api-key': key } });

  beforeAll(async () => {
    ({ dir, cleanup } = tempDir());
    // Every command through PgBouncer, the schema's migration included.
    env = { LISTINGS_DB: session.via(await server.newDatabase()), PUBLIC_URL: 'https://listings.example.com' };
    run(['import', DEMO_DATA]);
    serve = spawnServer(['serve', '--port', String(await freePort()), '--quiet'], env);
    base = await serve.ready;
  });
  afterAll(async () => {
    await serve?.stop();
    cleanup?.();
  });

  it('listings serve answers keyed requests; an import through the CLI is served on the next request', async () => {
    const reader = JSON.parse(run(['keys', 'create', '--facility', 'wro-1', '--json'])) as { key: string };
    const before = await list(reader.key);
    expect(before.status).toBe(200);
    const gross = grossOfM07(await before.json());
    const data = demoJson();
    data.facilities[0].listings.find((l: { code: string }) => l.code === 'M-07').price_gross += 900;
    run(['import', writeJson(dir, 'raised.json', data)]);
    const after = await list(reader.key);
    expect(after.status).toBe(200);
    expect(grossOfM07(await after.json())).toBeGreaterThan(gross);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });

  it('a revoke through the CLI is refused on the next request', async () => {
    const doomed = JSON.parse(run(['keys', 'create', '--facility', 'wro-1', '--json'])) as { key: string; id: string };
    expect((await list(doomed.key)).status).toBe(200);
    run(['keys', 'revoke', doomed.id]);
    const refused = await list(doomed.key);
    expect([refused.status, ((await refused.json()) as { code: string }).code]).toEqual([401, 'revoked_api_key']);
  });

  it('NOTIFY still wakes a node: a revoke reaches its mirror and drops its caches before any request', async () => {
    const db = await server.newDatabase();
    expect(
      await revokeWithoutRequest({ nodeUrl: session.via(db), storeUrl: db, adminUrl: server.url }),
    ).toBeGreaterThan(0);
  });
});

describe('transaction mode is not supported, and why', () => {
  it('NOTIFY never reaches the LISTEN connection: its server connection went back to the pool after the LISTEN', async () => {
    const transaction = await startPgBouncer(server, { mode: 'transaction' });
    const db = await server.newDatabase();
    const store = await openStore(db);
    const calls = { session: 0, transaction: 0 };
    // Each listener is called once when it has connected and listens, then once per notification.
    const listeners = [
      listenForChanges(session.via(db), () => calls.session++),
      listenForChanges(transaction.via(db), () => calls.transaction++),
    ];
    try {
      await until('both listening', () => calls.session === 1 && calls.transaction === 1);
      await store.applyImport(demoImport());
      await until('the notification through session mode', () => calls.session === 2);
      await new Promise((r) => setTimeout(r, 1000));
      expect(calls.transaction).toBe(1);
    } finally {
      await Promise.all(listeners.map((l) => l.close()));
      await store.close();
      await transaction.close();
    }
  });

  it("a second node's change-counter read, a prepared statement, clashes with the first's on their shared server connection", async () => {
    // One server connection makes the clash certain; with more it comes whenever two clients' statements meet on one.
    const transaction = await startPgBouncer(server, { mode: 'transaction', poolSize: 1 });
    const db = await server.newDatabase();
    const store = await openStore(db);
    await store.applyImport(demoImport());
    const first = await startPgNode(transaction.via(db));
    try {
      await expect(startPgNode(transaction.via(db))).rejects.toThrow(
        /prepared statement "listings-change-counter" already exists/,
      );
    } finally {
      await first.close();
      await store.close();
      await transaction.close();
    }
  });
});
