// The deliverer as `listings serve` runs it: its own connection to the database, so sends never wait on the API's.
import { openStore } from '../store/store.ts';
import { Deliverer } from './deliverer.ts';

export interface RunningWebhooks {
  close(): Promise<void>;
}

export async function startWebhooks(opts: {
  db: string;
  publicUrl: string;
  allowPrivate: boolean;
  log: (line: string) => void;
}): Promise<RunningWebhooks> {
  const store = await openStore(opts.db, { mustExist: true });
  const deliverer = new Deliverer(store.webhooks, {
    publicUrl: opts.publicUrl,
    allowPrivate: opts.allowPrivate,
    log: opts.log,
  });
  deliverer.start();
  return {
    close: async () => {
      await deliverer.stop();
      await store.close();
    },
  };
}
