// LISTEN on a dedicated connection (never a pooled one: a pool would hand it to other queries or close it when idle).
import pg from 'pg';
import { CHANGES_CHANNEL } from './changes.ts';

/** How long to wait before connecting again after the connection was lost. */
const RECONNECT_MS = 1_000;

/** Calls onChange on every notification, and on every (re)connection since notifications may have been missed meanwhile. */
export function listenForChanges(location: string, onChange: () => void): { close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  const retry = () => {
    client = undefined;
    if (!closed && !timer) timer = setTimeout(connect, RECONNECT_MS).unref();
  };
  const connect = async () => {
    timer = undefined;
    const c = new pg.Client({ connectionString: location, application_name: 'storage-listings listen' });
    client = c;
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (client === c) retry();
    };
    c.on('error', onLost);
    c.on('end', onLost);
    c.on('notification', () => onChange());
    try {
      await c.connect();
      await c.query(`LISTEN ${CHANGES_CHANNEL}`);
      if (closed) await c.end();
      else onChange();
    } catch {
      onLost();
      await c.end().catch(() => {});
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => {});
    },
  };
}
