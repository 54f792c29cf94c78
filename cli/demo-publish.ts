// The demo's snapshots kept fresh as `snapshot publish --watch` keeps a target: an import reaches /demo/snapshots/.
import type { PanelSnapshots } from '../server/panel/snapshots.ts';
import { folderTarget } from '../server/snapshots/targets/folder.ts';
import { lockSharedInProcess } from '../server/snapshots/targets/shared-lock.ts';
import { watchAndPublish } from '../server/snapshots/publish/watch.ts';
import type { Store } from '../server/store/store.ts';
import { DEMO_TTL_SECONDS, demoSigningKey } from './demo-site.ts';

/** The demo's target and key, for the panel's Snapshots tab and for the watch, which share the folder's lock. */
export async function demoSnapshots(signingDir: string, outDir: string): Promise<PanelSnapshots> {
  const target = lockSharedInProcess(folderTarget(outDir));
  return { target, key: await demoSigningKey(signingDir), ttlSeconds: DEMO_TTL_SECONDS };
}

/** Publishes every commit to the demo's database, as --watch does, until stop() (which waits for the one in flight). */
export function watchDemoSnapshots(
  store: Store,
  snapshots: PanelSnapshots,
  publicUrl: string,
  say: (line: string) => void,
): { stop(): Promise<void> } {
  const controller = new AbortController();
  const watching = watchAndPublish(store.snapshotLedger(), {
    ...snapshots,
    publicUrl,
    signal: controller.signal,
    onPublish: () => undefined,
    onRetry: (err, ms) => say(`demo snapshots: publish failed, retrying in ${Math.round(ms / 1000)} s: ${err.message}`),
    onWaiting: (message) => say(`demo snapshots: waiting: ${message}`),
  }).catch((err: unknown) => say(`demo snapshots: stopped: ${(err as Error).message}`));
  return {
    stop: async () => {
      controller.abort();
      await watching;
    },
  };
}
