// `serve --workers N`: N processes share one listening socket (node:cluster); the primary only supervises.
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { ListingsError } from './errors.ts';

export function workerCount(value: string | undefined): number {
  if (value === undefined) return 1;
  if (value === 'auto') return availableParallelism();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new Error('must be a whole number from 1 to 256, or auto');
  return n;
}

export const isClusterWorker = () => cluster.isWorker;

/** Forks the workers, restarts any that die unexpectedly, and on SIGTERM/SIGINT waits for all to finish in-flight requests. */
export function superviseWorkers(count: number, onReady: () => void, log: (line: string) => void): Promise<void> {
  let stopping = false;
  let ready = 0;
  let reason: string | undefined; // what the first worker that could not start said
  const fork = (): Worker => {
    const w = cluster.fork();
    w.on('message', (m: unknown) => {
      if (m === 'ready' && ++ready === count) onReady();
      else if (typeof m === 'object' && m !== null && typeof (m as { failed?: unknown }).failed === 'string')
        reason ??= (m as { failed: string }).failed;
    });
    return w;
  };
  for (let i = 0; i < count; i++) fork();
  let failed: ListingsError | undefined;
  return new Promise((resolve, reject) => {
    cluster.on('exit', (w, code, signal) => {
      if (!stopping && ready < count) {
        // A worker that cannot start (port in use, bad database) will not start on a retry either.
        failed = new ListingsError(
          'worker_failed',
          reason ?? `a worker failed to start (${signal ?? `exit ${code}`}); stopped all workers`,
        );
        stop();
      } else if (!stopping) {
        log(`worker ${w.process.pid} exited (${signal ?? code}); starting another`);
        fork();
        return;
      }
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        if (failed) reject(failed);
        else resolve();
      }
    });
    const stop = () => {
      if (stopping) return;
      stopping = true;
      for (const w of Object.values(cluster.workers ?? {})) w?.process.kill('SIGTERM');
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
}

export function tellPrimaryReady(): void {
  process.send?.('ready');
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
