// Shared set-up for behaviour tests: the demo data in a temporary database and the handler (or a server) over it, made
// before the file's tests and removed after them. What each test reads is on the returned object, filled in by beforeAll.
import { afterAll, beforeAll } from 'vitest';
import type { HandlerOptions } from '../../server/http/handler.ts';
import type { Db } from '../../server/store/db.ts';
import type { ImportFile } from '../../server/schemas/import.ts';
import type { AppOptions } from '../../server/app.ts';
import { demoDb, startTestServer, tempDir } from './fixture.ts';
import { handlerOver } from './inject.ts';

export interface DemoHandler {
  db: Db;
  file: string;
  dir: string;
  handler: ReturnType<typeof handlerOver>;
}

/**
 * The demo data (or `data`) with `prepare` run on the store (issue keys, revoke some), then a handler over it with
 * this process's own connection, as `listings serve` has.
 */
export function useDemoHandler(
  opts: { data?: ImportFile; prepare?: (db: Db) => void; handler?: Partial<HandlerOptions> } = {},
): DemoHandler {
  const ctx = {} as DemoHandler;
  let cleanup: () => void;
  beforeAll(() => {
    ({ dir: ctx.dir, cleanup } = tempDir());
    ({ db: ctx.db, file: ctx.file } = demoDb(ctx.dir, opts.data));
    opts.prepare?.(ctx.db);
    ctx.handler = handlerOver(ctx.file, opts.handler);
  });
  afterAll(() => {
    ctx.handler?.close();
    ctx.db?.close();
    cleanup?.();
  });
  return ctx;
}

export interface DemoServer {
  db: Db;
  file: string;
  dir: string;
  app: Awaited<ReturnType<typeof startTestServer>>;
}

/** The same, served on a real port in this process: for what only a socket shows (raw bytes, limits per address). */
export function useDemoServer(
  opts: { data?: ImportFile; prepare?: (db: Db) => void; app?: Partial<AppOptions> } = {},
): DemoServer {
  const ctx = {} as DemoServer;
  let cleanup: () => void;
  beforeAll(async () => {
    ({ dir: ctx.dir, cleanup } = tempDir());
    ({ db: ctx.db, file: ctx.file } = demoDb(ctx.dir, opts.data));
    opts.prepare?.(ctx.db);
    ctx.app = await startTestServer(ctx.file, opts.app);
  });
  afterAll(async () => {
    await ctx.app?.close();
    ctx.db?.close();
    cleanup?.();
  });
  return ctx;
}
