// Shared set-up for behaviour tests: the demo data in a temporary database and the handler (or a server) over it, made
// before the file's tests and removed after them. What each test reads is on the returned object, filled in by beforeAll.
import { afterAll, beforeAll } from 'vitest';
import type { HandlerOptions } from '../../server/http/handler.ts';
import type { Db } from '../../server/store/db.ts';
import type { ImportFile } from '../../server/schemas/import.ts';
import type { AppOptions } from '../../server/app.ts';
import { demoDb, startTestServer, tempDir } from './fixture.ts';
import { handlerOver } from './inject.ts';

export interface DemoDb {
  db: Db;
  file: string;
  dir: string;
}

/** The demo data (or `data`) in a temporary database file, with `prepare` run on the store (issue keys, revoke some). */
export function useDemoDb(opts: { data?: ImportFile; prepare?: (db: Db) => void } = {}): DemoDb {
  const ctx = {} as DemoDb;
  let cleanup: () => void;
  beforeAll(() => {
    ({ dir: ctx.dir, cleanup } = tempDir());
    ({ db: ctx.db, file: ctx.file } = demoDb(ctx.dir, opts.data));
    opts.prepare?.(ctx.db);
  });
  afterAll(() => {
    if (ctx.db?.open) ctx.db.close();
    cleanup?.();
  });
  return ctx;
}

export interface DemoHandler extends DemoDb {
  handler: ReturnType<typeof handlerOver>;
}

/** The same with a handler over it, with this process's own connection, as `listings serve` has. */
export function useDemoHandler(
  opts: { data?: ImportFile; prepare?: (db: Db) => void; handler?: Partial<HandlerOptions> } = {},
): DemoHandler {
  const ctx = useDemoDb(opts) as DemoHandler;
  beforeAll(() => {
    ctx.handler = handlerOver(ctx.file, opts.handler);
  });
  afterAll(() => ctx.handler?.close());
  return ctx;
}

export interface DemoServer extends DemoDb {
  app: Awaited<ReturnType<typeof startTestServer>>;
}

/** The same, served on a real port in this process: for what only a socket shows (raw bytes, limits per address). */
export function useDemoServer(
  opts: { data?: ImportFile; prepare?: (db: Db) => void; app?: Partial<AppOptions> } = {},
): DemoServer {
  const ctx = useDemoDb(opts) as DemoServer;
  beforeAll(async () => {
    ctx.app = await startTestServer(ctx.file, opts.app);
  });
  afterAll(async () => {
    await ctx.app?.close();
  });
  return ctx;
}
