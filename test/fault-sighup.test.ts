// SIGHUP (the terminal or SSH session a server ran in closed) stops `serve` and `panel` as SIGTERM does: in-flight work
// finished, the keys' last use and the counted clicks written, exit 0; by default it would end them at once.
import { once } from 'node:events';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { listKeys, updateKey } from '../server/store/keys.ts';
import { referralRows } from '../server/store/referrals.ts';
import { openDb } from '../server/store/db.ts';
import { cli, demoDb, freePort, issueKey, spawnServer, tempDir } from './helpers/fixture.ts';
import { call } from './helpers/http.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
let dir: string;
let file: string;
let cleanup: () => void;
let reader: { key: string; id: string };
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  const demo = demoDb(dir);
  file = demo.file;
  reader = issueKey(demo.db, 'wro-1');
  updateKey(demo.db, reader.id, { ref: 'odra' });
  demo.db.close();
});
afterEach(() => cleanup());

type Exit = [number | null, NodeJS.Signals | null];

it('serve: SIGHUP writes last use and clicks, then exits 0', async () => {
  const server = spawnServer(['serve', '--port', String(await freePort()), '--quiet'], { LISTINGS_DB: file });
  const exited = once(server.child, 'exit') as Promise<Exit>;
  try {
    const base = await server.ready;
    expect((await call(base, '/external/listings', { headers: { 'x-api-key': reader.key } })).status).toBe(200);
    const click = await fetch(`${base}/go/wro-1/M-07?ref=odra`, {
      headers: { 'user-agent': BROWSER },
      redirect: 'manual',
    });
    expect(click.status).toBe(302);
    server.child.kill('SIGHUP');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  } finally {
    await server.stop();
  }
  // Both are written every 30 s; this test is shorter, so only the stop wrote them.
  const db = openDb(file);
  try {
    expect(listKeys(db).find((k) => k.id === reader.id)!.last_used_at).not.toBeNull();
    const clicks = referralRows(db, { from: '2000-01-01', to: '2999-12-31' });
    expect(clicks.map((r) => [r.facility, r.ref, r.clicks])).toEqual([['wro-1', 'odra', 1]]);
  } finally {
    db.close();
  }
}, 30_000);

it('panel: SIGHUP closes it and exits 0', async () => {
  const env = { LISTINGS_DB: file };
  expect(cli(['operators', 'add', 'ops@example.com'], { env, input: 'correct horse battery staple\n' }).status).toBe(0);
  const panel = spawnServer(['panel', '--port', '0'], env);
  const exited = once(panel.child, 'exit') as Promise<Exit>;
  try {
    const url = await panel.ready;
    expect((await fetch(`${url}/login`)).status).toBe(200);
    panel.child.kill('SIGHUP');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  } finally {
    await panel.stop();
  }
}, 30_000);
