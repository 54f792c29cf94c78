// The panel alone in a process of its own, from the sources, for tests that weigh it (its RSS is its own): serves the
// database LISTINGS_DB on a free port, prints "panel at URL" on stderr, and closes on SIGTERM.
import { startPanel } from '../../server/panel/server.ts';
import { openStore } from '../../server/store/store.ts';

const store = await openStore(process.env.LISTINGS_DB!, { mustExist: true });
const panel = await startPanel({
  store,
  host: '127.0.0.1',
  port: 0,
  publicUrl: 'http://127.0.0.1:8787',
  keyPrefix: 'svc',
});
process.stderr.write(`panel at ${panel.url}\n`);
process.once('SIGTERM', () => {
  panel.server.closeAllConnections();
  void panel.close().then(() => store.close());
});
