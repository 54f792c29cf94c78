// Two `listings serve` nodes on one PostgreSQL database with the demo data, as behind one load balancer.
import { afterAll, beforeAll, expect } from 'vitest';
import { cli, DEMO_DATA, freePort, spawnServer } from './fixture.ts';
import { startPostgres, type PgServer } from './postgres.ts';

export interface TwoNodes {
  /** LISTINGS_DB (the database's URL) and the nodes' shared PUBLIC_URL, for the CLI as for the nodes. */
  env: { LISTINGS_DB: string; PUBLIC_URL: string };
  /** Each node's http://127.0.0.1:PORT. */
  bases: string[];
  /** SIGTERM to both nodes, then waits for them to exit (the last test's end does it too). */
  stop: () => Promise<void>;
}

/**
 * Before the tests of the file it is called in: PostgreSQL, a database with the demo imported through the CLI, `prepare`
 * run on it, then two nodes started on free ports with `publicUrl`; handed to `use`, all stopped after the last test.
 */
export function twoNodesForAll(
  publicUrl: string,
  use: (t: TwoNodes) => void,
  prepare: (db: string) => void = () => {},
): void {
  let pg: PgServer | undefined;
  let nodes: ReturnType<typeof spawnServer>[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  };
  beforeAll(async () => {
    pg = await startPostgres();
    const env = { LISTINGS_DB: await pg.newDatabase(), PUBLIC_URL: publicUrl };
    expect(cli(['import', DEMO_DATA], { env }).status).toBe(0);
    prepare(env.LISTINGS_DB);
    nodes = [];
    for (let i = 0; i < 2; i++) nodes.push(spawnServer(['serve', '--port', String(await freePort()), '--quiet'], env));
    use({ env, bases: await Promise.all(nodes.map((n) => n.ready)), stop });
  });
  afterAll(async () => {
    await stop();
    await pg?.close();
  });
}
