// A server whose stdout nobody reads (a log shipper that hung) still stops on SIGTERM: it answers, stops, waits a few
// seconds for the reader to take the log's last lines, then gives them up, says so on stderr and exits 0.
import { once } from 'node:events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { demoDb, demoJson, freePort, issueKey, spawnServer, tempDir } from './helpers/fixture.ts';

let cleanup: () => void;
let file: string;
let key: string;

beforeAll(() => {
  let dir: string;
  ({ dir, cleanup } = tempDir());
  const demo = demoDb(dir);
  file = demo.file;
  key = issueKey(demo.db, demoJson().facilities[0].id, { rate_per_s: 100_000, burst: 100_000 }).key;
  demo.db.close();
});
afterAll(() => cleanup());

it('exits on SIGTERM though stdout is not read, giving up the lines still waiting', async () => {
  const port = await freePort();
  const server = spawnServer(['serve', '--port', String(port)], { LISTINGS_DB: file });
  const exited = once(server.child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const base = await server.ready;
  // The reader stops reading: once the pipe and this side's buffer are full, the server's log writes wait.
  server.child.stdout.pause();
  // About 3,000 request lines of some 250 bytes: several times what the pipe and the buffers hold.
  let sent = 0;
  const worker = async () => {
    while (sent < 3000) {
      sent++;
      const r = await fetch(`${base}/external/listings`, { headers: { 'x-api-key': key } });
      expect(r.status).toBe(200);
      await r.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  server.child.kill('SIGTERM');
  const [code] = await exited;
  expect(code).toBe(0);
  expect(server.output().stderr).toMatch(
    /log: the lines still waiting were dropped: stdout was not read for 5 s at exit/,
  );
});
