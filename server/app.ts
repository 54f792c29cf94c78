// The composition root: config -> database -> freshness -> handler -> server, each built once and handed to the next;
// stops it all cleanly on SIGTERM, SIGINT or SIGHUP (STOP_SIGNALS).
import { boundTo, type Config } from './config.ts';
import { openDb } from './store/db.ts';
import { isPostgresUrl } from './store/pg/location.ts';
import { startPgNode } from './pg-node.ts';
import { createHandler, type HandlerOptions } from './http/handler.ts';
import { Freshness } from './freshness/freshness.ts';
import { createLogger, type Logger } from './logger.ts';
import { startServer, type RunningServer } from './http/transport/server.ts';
import { yieldHelperThreads } from './http/transport/helper-threads.ts';
import type { Limit } from './http/api/rate-limit.ts';
import { DEFAULT_KEY_LIMIT } from './domain/keys.ts';
import { onStopSignals } from './stop-signals.ts';

export interface AppOptions {
  config: Config;
  mounts?: HandlerOptions['mounts'];
  links?: HandlerOptions['links'];
  defaultLimit?: Limit;
  authFailureLimit?: Limit;
  pageLimit?: Limit;
  pageRenderLimit?: Limit;
  /** 0: answer every refusal at once (the bench's cost-of-a-refusal scenario). */
  holdRefusedMs?: number;
  lastUseIntervalMs?: number;
  clickIntervalMs?: number;
  /** The process's logger, made once by the caller (the CLI); without it the app makes its own from the two below. */
  logger?: Logger;
  /** Where log lines go instead of stdout (tests), one line per call. */
  logWrite?: (text: string) => void;
  /** Warnings and errors only, no request lines. */
  quiet?: boolean;
}

/** A filtered list larger than this is compressed in the thread pool, so that other clients' answers need not wait. */
export const OFF_LOOP_BYTES = 64 * 1024;
/** A client refused again and again without waiting gets its 429 this much later: it waits instead of spinning. */
export const HOLD_REFUSED_MS = 1000;
export const DEFAULT_AUTH_FAILURE_LIMIT: Limit = { rate: 5, burst: 30 };

export interface App extends RunningServer {
  stopped: Promise<void>;
  /** The public URL the answers carry: PUBLIC_URL, or one made from the host and the port the server got. */
  publicUrl: string;
}

export async function startApp(opts: AppOptions): Promise<App> {
  const { config } = opts;
  // A newer program migrates an older file on start; a missing file, or one newer than the program, is refused with one line.
  // On PostgreSQL the handler reads an in-memory mirror of it, brought up to date before each batch.
  const output = opts.logger
    ? { logger: opts.logger, flush: () => opts.logger!.flush() }
    : createLogger({ quiet: opts.quiet, write: opts.logWrite });
  const { logger } = output;
  // Held writes are retried as often as new ones are made.
  const retryMs = Math.min(opts.lastUseIntervalMs ?? 30_000, opts.clickIntervalMs ?? 30_000);
  const node = isPostgresUrl(config.db) ? await startPgNode(config.db, { logger, retryMs }) : undefined;
  const db = node?.db ?? openDb(config.db, { mustExist: true });
  // The server's close has flushed the log already: a node's last line (writes it could not make) is flushed after it.
  const closeDb = async () => (node ? (await node.close(logger), output.flush()) : db.close());
  // Built once here and handed in: the handler's caches follow `freshness`, which a PostgreSQL node keeps current.
  const freshness = new Freshness(db);
  let handler: ReturnType<typeof createHandler> | undefined;
  // Made once the port is known: asked for any port (0), the default public URL names the one the server got.
  const handlerFor = (port: number) =>
    (handler = createHandler({
      db,
      freshness,
      beforeBatch: node?.beforeBatch(freshness, logger),
      recordLastUse: node?.recordLastUse,
      recordClicks: node?.recordClicks,
      clickIntervalMs: opts.clickIntervalMs,
      publicUrl: boundTo(config, port).publicUrl,
      keyPrefix: config.keyPrefix,
      defaultLimit: opts.defaultLimit ?? DEFAULT_KEY_LIMIT,
      authFailureLimit: opts.authFailureLimit ?? DEFAULT_AUTH_FAILURE_LIMIT,
      pageLimit: opts.pageLimit,
      pageRenderLimit: opts.pageRenderLimit,
      lastUseIntervalMs: opts.lastUseIntervalMs ?? 30_000,
      mounts: opts.mounts,
      links: opts.links,
      logger,
      offLoopBytes: OFF_LOOP_BYTES,
      holdRefusedMs: opts.holdRefusedMs ?? HOLD_REFUSED_MS,
    }));
  let running: RunningServer;
  try {
    await yieldHelperThreads();
    running = await startServer(handlerFor, output.flush, {
      host: config.host,
      port: config.port,
      trustProxy: config.trustProxy,
    });
  } catch (err) {
    handler?.close();
    await closeDb();
    throw err;
  }
  let resolveStopped!: () => void;
  const stopped = new Promise<void>((r) => (resolveStopped = r));
  // Idempotent, and listening until it is done: under systemd a worker gets SIGTERM from systemd and again from the
  // primary, and a second signal with no listener would kill it mid-request.
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await running.close();
      await closeDb();
      stopListening();
      resolveStopped();
    })());
  const stopListening = onStopSignals(() => void close());
  return { ...running, close, stopped, publicUrl: boundTo(config, running.port).publicUrl };
}
