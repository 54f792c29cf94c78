// `listings serve` as an operator runs it: starts and says where, stops cleanly on SIGTERM, fails with one clear line.
import Database from 'better-sqlite3';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../cli/program.ts';
import { SCHEMA_VERSION } from '../server/store/migrations.ts';
import { bufferIo, cli, demoDb, freePort, issueKey, spawnServer, tempDir } from './helpers/fixture.ts';
import { call, json } from './helpers/http.ts';

let dir: string;
let cleanup: () => void;
let file: string;
let key: { key: string; id: string };
beforeEach(() => {
  ({ dir, cleanup } = tempDir());
  const demo = demoDb(dir);
  file = demo.file;
  key = issueKey(demo.db, 'wro-1');
  demo.db.close();
});
afterEach(() => cleanup());

/** One line on stderr, naming what failed, and no stack trace. */
function expectOneLine(stderr: string) {
  const lines = stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^error: /);
  expect(stderr).not.toMatch(/\n\s+at /);
}

describe('listings serve', () => {
  it('prints its URL, serves, and on SIGTERM flushes last use and exits 0', async () => {
    const port = await freePort();
    const server = spawnServer(['serve', '--port', String(port), '--quiet'], { LISTINGS_DB: file });
    const exited = once(server.child, 'exit');
    const url = await server.ready;
    expect(url).toBe(`http://127.0.0.1:${port}`);

    const r = await call(url, '/external/listings', { key: key.key });
    expect(r.status).toBe(200);
    expect(json(r).facility.id).toBe('wro-1');

    server.child.kill('SIGTERM');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(server.output().stderr).not.toMatch(/error/i);
    const io = bufferIo({ LISTINGS_DB: file });
    expect(await runCli(['keys', 'list', '--json'], io)).toBe(0);
    expect(JSON.parse(io.stdout())[0].last_used_at).not.toBeNull();
  });

  it('on --port 0 without a public URL, names the port it got in its banner, rent links and redirects', async () => {
    const server = spawnServer(['serve', '--port', '0', '--quiet'], { LISTINGS_DB: file });
    try {
      const url = await server.ready;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(url).not.toMatch(/:0$/);
      expect(server.output().stderr).toContain(`(public URL ${url})`);
      const listed = json(await call(url, '/external/listings', { key: key.key })) as {
        listings: { rent_url: string }[];
      };
      expect(listed.listings[0]!.rent_url.startsWith(`${url}/rent/wro-1/`)).toBe(true);
      const servers = (json(await call(url, '/openapi.json')) as { servers: { url: string }[] }).servers;
      expect(servers.map((s) => s.url)).toEqual([url]);
    } finally {
      await server.stop();
    }
  });

  describe('refuses to start with one clear line and exit 1', () => {
    let blocker: Server | undefined;
    afterEach(async () => {
      if (blocker) await new Promise((r) => blocker!.close(r));
      blocker = undefined;
    });

    it('when the port is in use', async () => {
      blocker = createServer();
      blocker.listen(0, '127.0.0.1');
      await once(blocker, 'listening');
      const { port } = blocker.address() as { port: number };
      const r = cli(['serve', '--port', String(port)], { env: { LISTINGS_DB: file } });
      expect(r.status).toBe(1);
      expectOneLine(r.stderr);
      expect(r.stderr).toContain(String(port));
    });

    it('on a database of a newer schema version', () => {
      const future = join(dir, 'future.db');
      const db = new Database(future);
      db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
      db.close();
      const r = cli(['serve', '--port', '0'], { env: { LISTINGS_DB: future } });
      expect(r.status).toBe(1);
      expectOneLine(r.stderr);
      expect(r.stderr).toContain(String(SCHEMA_VERSION + 1));
    });
  });

  it.each([
    ['--port 99999', ['--port', '99999'], {}],
    ['PORT=http', [], { PORT: 'http' }],
  ])('refuses a bad port (%s) as a usage error: one line naming --port, exit 2', (_name, args, env) => {
    const r = cli(['serve', ...args], { env: { LISTINGS_DB: file, ...env } });
    expect(r.status).toBe(2);
    expectOneLine(r.stderr);
    expect(r.stderr).toContain('--port');
  });
});
