// Shared set-up for behaviour tests: the demo data in a temporary database and the handler (or a server) over it, made
// before the file's tests and removed after them. What each test reads is on the returned object, filled in by beforeAll.
// Tests of what the store holds (keys, revocations, origins, limits) run on both backends with `backend`.
import { afterAll, beforeAll } from 'vitest';
import type { HandlerOptions } from '../../server/http/handler.ts';
import type { Db } from '../../server/store/db.ts';
import { copySqliteToPg } from '../../server/store/pg/copy.ts';
import type { ImportFile } from '../../server/schemas/import.ts';
import type { AppOptions } from '../../server/app.ts';
import { demoDb, startTestServer, tempDir } from './fixture.ts';
import { handlerAt } from './inject.ts';
import { startPostgres, type PgServer } from './postgres.ts';

/** Where the data lives: a SQLite file, or a PostgreSQL database (test/helpers/postgres.ts starts one per file). */
export const BACKENDS = ['sqlite', 'postgres'] as const;
export type Backend = (typeof BACKENDS)[number];

export interface DemoDb {
  /** The SQLite file `prepare` ran on; on PostgreSQL only the source of the copy, and closed. */
  db: Db;
  file: string;
  dir: string;
  /** LISTINGS_DB for the CLI and the server: the file, or the postgres:// URL of a database with the same rows. */
  location: string;
}

interface DemoOptions {
  data?: ImportFile;
  prepare?: (db: Db) => void;
  /** Default sqlite. On postgres the prepared file is copied into a new database, as `listings db copy` does. */
  backend?: Backend;
}

/** The demo data (or `data`) in a temporary database, with `prepare` run on the store (issue keys, revoke some). */
export function useDemoDb(opts: DemoOptions = {}): DemoDb {
  const ctx = {} as DemoDb;
  let cleanup: () => void;
  let pg: PgServer | undefined;
  beforeAll(async () => {
    ({ dir: ctx.dir, cleanup } = tempDir());
    ({ db: ctx.db, file: ctx.file } = demoDb(ctx.dir, opts.data));
    opts.prepare?.(ctx.db);
    ctx.location = ctx.file;
    if (opts.backend !== 'postgres') return;
    // Closed, so that a test cannot change the file and expect the server on PostgreSQL to see it.
    ctx.db.close();
    pg = await startPostgres();
    ctx.location = await pg.newDatabase();
    await copySqliteToPg(ctx.file, ctx.location);
  });
  afterAll(async () => {
    if (ctx.db?.open) ctx.db.close();
    await pg?.close();
    cleanup?.();
  });
  return ctx;
}

export interface DemoHandler extends DemoDb {
  handler: Awaited<ReturnType<typeof handlerAt>>;
}

/** The same with a handler over it, with this process's own connection (or node on PostgreSQL), as `listings serve` has. */
export function useDemoHandler(opts: DemoOptions & { handler?: Partial<HandlerOptions> } = {}): DemoHandler {
  const ctx = useDemoDb(opts) as DemoHandler;
  beforeAll(async () => {
    ctx.handler = await handlerAt(ctx.location, opts.handler);
  });
  afterAll(() => ctx.handler?.stop());
  return ctx;
}

export interface DemoServer extends DemoDb {
  app: Awaited<ReturnType<typeof startTestServer>>;
}

/** The same, served on a real port in this process: for what only a socket shows (raw bytes, limits per address). */
export function useDemoServer(opts: DemoOptions & { app?: Partial<AppOptions> } = {}): DemoServer {
  const ctx = useDemoDb(opts) as DemoServer;
  beforeAll(async () => {
    ctx.app = await startTestServer(ctx.location, opts.app);
  });
  afterAll(async () => {
    await ctx.app?.close();
  });
  return ctx;
}
