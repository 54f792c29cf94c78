// What the HTTP fuzz tests run against: two generated facilities whose data is easy to spot in any answer, keys in
// every state, and servers over them (limits raised or default, on the SQLite file or a PostgreSQL copy of it).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { parseImport } from '../../server/domain/import.ts';
import { openDb } from '../../server/store/db.ts';
import { applyImport } from '../../server/store/facilities.ts';
import { revokeKey } from '../../server/store/keys.ts';
import { copySqliteToPg } from '../../server/store/pg/copy.ts';
import { markedFacility } from './data.ts';
import { issueKey, startTestServer, tempDir } from './fixture.ts';
import { startPostgres, type PgServer } from './postgres.ts';

export const API = '/external/listings';
export const INACTIVE = 'QXINACTIVE';
export const ALLOWED_ORIGIN = 'https://alpha.example';

const a = markedFacility('fuzz-a', 'QXALPHA', 6, 2, INACTIVE);
const b = markedFacility('fuzz-b', 'QXBRAVO', 6, 2, INACTIVE);
export const [A, B] = [a.facility, b.facility];

export interface FuzzKeys {
  a: string;
  b: string;
  revokedA: string;
  /** A's key that only ALLOWED_ORIGIN may send. */
  restrictedA: string;
}

export interface FuzzWorld {
  /** The SQLite file with A, B and the keys. */
  file: string;
  keys: FuzzKeys;
}

/** A and B in a temporary SQLite file with their keys, made before the file's tests (its own beforeAll and afterAll). */
export function useFuzzWorld(): FuzzWorld {
  const world: FuzzWorld = { file: '', keys: { a: '', b: '', revokedA: '', restrictedA: '' } };
  let cleanup: (() => void) | undefined;
  beforeAll(() => {
    let dir: string;
    ({ dir, cleanup } = tempDir());
    const importFile = join(dir, 'import.json');
    writeFileSync(importFile, JSON.stringify({ facilities: [a.json, b.json] }));
    world.file = join(dir, 'listings.db');
    const db = openDb(world.file);
    applyImport(db, parseImport(JSON.stringify({ facilities: [a.json, b.json] }), importFile));
    const { keys } = world;
    keys.a = issueKey(db, A.id).key;
    keys.b = issueKey(db, B.id).key;
    const revoked = issueKey(db, A.id);
    revokeKey(db, revoked.id);
    keys.revokedA = revoked.key;
    keys.restrictedA = issueKey(db, A.id, { allowed_origins: [ALLOWED_ORIGIN] }).key;
    db.close();
  });
  afterAll(() => cleanup?.());
  return world;
}

const HIGH = { rate: 1e9, burst: 1e9 };
/** Limits no fuzz run reaches: the handlers themselves are exercised, not just the 429. */
const RAISED_LIMITS = { authFailureLimit: HIGH, defaultLimit: HIGH, pageLimit: HIGH, pageRenderLimit: HIGH };

/**
 * A server in this process over the world's data for the file's tests: on its SQLite file, or on `postgres` a node on
 * a new PostgreSQL database holding the same rows; limits raised unless `defaultLimits`. `port` is set by beforeAll.
 */
export function useFuzzServer(
  world: FuzzWorld,
  opts: { postgres?: boolean; defaultLimits?: boolean } = {},
): { port: number } {
  const ctx = { port: 0 };
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  let pg: PgServer | undefined;
  beforeAll(async () => {
    let location = world.file;
    if (opts.postgres) {
      pg = await startPostgres();
      location = await pg.newDatabase();
      await copySqliteToPg(world.file, location);
    }
    server = await startTestServer(location, opts.defaultLimits ? {} : RAISED_LIMITS);
    ctx.port = server.port;
  });
  afterAll(async () => {
    await server?.close();
    await pg?.close();
  });
  return ctx;
}
