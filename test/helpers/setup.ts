// Shared set-up for behaviour tests: the demo data in a temporary database and the handler over it, made before the
// file's tests and removed after them. What each test reads is on the returned object, filled in by beforeAll.
import { afterAll, beforeAll } from 'vitest';
import type { HandlerOptions } from '../../server/http/handler.ts';
import type { Db } from '../../server/store/db.ts';
import type { ImportFile } from '../../server/schemas/import.ts';
import { demoDb, tempDir } from './fixture.ts';
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
