// The server for the bench's "unknown key 401" scenario: the same app as `listings serve --quiet`, with the
// failed-authentication limit per address lifted, so that a client sending an unknown key gets 401 on every request
// instead of 429 after 30. That measures the 401 path itself; the default limit stays in the "429" scenario.
// Only the bench runs this, compiled to dist/bench/ by compileBenchServers(): `node dist/bench/serve-open-auth.mjs DB PORT`.
import { startApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';

// With MODE `no-hold`: the default limit, and every refusal answered at once (the "429" scenario measures its cost;
// `listings serve` holds back the 429s of a client that keeps sending while refused).
const [db, port, mode] = process.argv.slice(2);
const config = loadConfig({ db, port, host: '127.0.0.1' }, {});
const app = await startApp(
  mode === 'no-hold'
    ? { config, quiet: true, holdRefusedMs: 0 }
    : { config, quiet: true, authFailureLimit: { rate: 1e9, burst: 1e9 } },
);
process.stderr.write(
  `bench server (${mode === 'no-hold' ? 'refusals not held' : 'failed-auth limit lifted'}) at ${app.url} \n`,
);
await app.stopped;
