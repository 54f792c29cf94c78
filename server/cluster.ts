// `serve --workers N`: N processes share one listening socket (node:cluster); the primary only supervises.
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { ListingsError } from './errors.ts';
import { onStopSignals } from './stop-signals.ts';

export function workerCount(value: string | undefined): number {
  if (value === undefined) return 1;
  if (value === 'auto') return availableParallelism();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new Error('must be a whole number from 1 to 256, or auto');
  return n;
}

export const isClusterWorker = () => cluster.isWorker;

/** Workers under supervision: the port they listen on once all are ready, and the end of the supervision. */
export interface Supervised {
  /** The port every worker listens on (the one they got for port 0); rejects if a worker cannot start. */
  ready: Promise<number>;
  /** Resolves when every worker has stopped after a stop signal (STOP_SIGNALS) or `stop()`; rejects if a worker could not start. */
  done: Promise<void>;
  stop(): void;
}

/** Forks the workers, restarts any that die unexpectedly, and on a stop signal waits for all to finish in-flight requests. */
export function superviseWorkers(count: number, log: (line: string) => void): Supervised {
  let stopping = false;
  let ready = 0;
  let reason: string | undefined; // what the first worker that could not start said
  let isReady!: (port: number) => void;
  let notReady!: (err: Error) => void;
  const readyPort = new Promise<number>((resolve, reject) => ([isReady, notReady] = [resolve, reject]));
  const fork = (): Worker => {
    const w = cluster.fork();
    w.on('message', (m: unknown) => {
      if (typeof m !== 'object' || m === null) return;
      const { ready: port, failed } = m as { ready?: unknown; failed?: unknown };
      if (typeof port === 'number' && ++ready === count) isReady(port);
      else if (typeof failed === 'string') reason ??= failed;
    });
    return w;
  };
  for (let i = 0; i < count; i++) fork();
  let failed: ListingsError | undefined;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
  };
  // Kept until every worker is gone: a second signal during the stop must not kill the primary.
  const stopListening = onStopSignals(stop);
  const done = new Promise<void>((resolve, reject) => {
    cluster.on('exit', (w, code, signal) => {
      if (!stopping && ready < count) {
        // A worker that cannot start (port in use, bad database) will not start on a retry either.
        failed = new ListingsError(
          'worker_failed',
          reason ?? `a worker failed to start (${signal ?? `exit ${code}`}); stopped all workers`,
        );
        notReady(failed);
        stop();
      } else if (!stopping) {
        log(`worker ${w.process.pid} exited (${signal ?? code}); starting another`);
        fork();
        return;
      }
      // A worker whose exit comes before its channel's disconnect is still listed: dead, it counts as gone.
      if (Object.values(cluster.workers ?? {}).every((other) => !other || other.isDead())) {
        stopListening();
        if (failed) reject(failed);
        else resolve();
      }
    });
  });
  // Stopped before every worker was ready: there is no port to wait for.
  void done.then(
    () => notReady(new ListingsError('worker_failed', 'stopped before the workers were ready')),
    () => {},
  );
  readyPort.catch(() => {}); // read through `ready`; a failure is also `done`'s
  return { ready: readyPort, done, stop };
}

/** Tells the primary this worker listens, and on which port (the one it got, when it asked for 0). */
export function tellPrimaryReady(port: number): void {
  process.send?.({ ready: port });
}

/**
 * A worker that cannot start hands its one-line reason to the primary and exits 1 without printing it, so that the
 * operator reads the reason once, from the primary, instead of once per worker.
 */
export async function failWorker(message: string): Promise<never> {
  await new Promise<void>((resolve) =>
    process.send ? process.send({ failed: message }, undefined, {}, () => resolve()) : resolve(),
  );
  process.exit(1);
}
