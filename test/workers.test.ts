// `listings serve --workers N`: N real processes share one port, and every one of them stays exactly as fresh as a
// single server.
import { execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cli,
  demoDbForAll,
  demoJson,
  freePort,
  grossOfM07,
  issueKey,
  servedDemo,
  spawnServer,
  writeJson,
  type ServedDemo,
} from './helpers/fixture.ts';
import { until } from './helpers/wait.ts';
import { childrenOf, connectionsHeldBy, many, workersOf } from './helpers/workers.ts';

describe('listings serve --workers 2', () => {
  let demo: ServedDemo;
  beforeAll(async () => {
    demo = await servedDemo(['--workers', '2'], { rate_per_s: 100, burst: 200 });
  });
  afterAll(() => demo.close());

  it('says so, and answers from two worker processes under one primary', async () => {
    expect(demo.server.output().stderr).toContain('2 workers');
    expect(childrenOf(demo.server.child.pid!)).toHaveLength(2);
    const answers = await many(demo.base, demo.reader.key, 12);
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(workersOf(answers).size).toBe(2);
    expect(new Set(answers.map((a) => a.etag)).size).toBe(1); // the same data gives the same ETag in every worker
  });

  it('an import in another process: every worker serves the new price and a new ETag on its next request', async () => {
    const before = await many(demo.base, demo.reader.key, 8);
    expect(workersOf(before).size).toBe(2);
    const old = before[0]!;
    for (const a of await many(demo.base, demo.reader.key, 8, { 'if-none-match': old.etag! }))
      expect(a.status).toBe(304); // both cached

    const data = demoJson();
    data.facilities[0].listings.find((l: { code: string }) => l.code === 'M-07').price_gross += 700;
    expect(cli(['import', writeJson(demo.dir, 'raised.json', data)], { env: demo.env }).status).toBe(0);

    const after = await many(demo.base, demo.reader.key, 8, { 'if-none-match': old.etag! });
    expect(workersOf(after).size).toBe(2);
    for (const a of after) {
      expect(a.status).toBe(200);
      expect(a.etag).not.toBe(old.etag);
      expect(grossOfM07(JSON.parse(a.body))).toBeGreaterThan(grossOfM07(JSON.parse(old.body)));
    }
  });

  it('a revoke in another process: the key is refused by every worker on its next request', async () => {
    const doomed = issueKey(demo.db, 'wro-1', { rate_per_s: 100, burst: 200 });
    const warm = await many(demo.base, doomed.key, 8);
    expect(workersOf(warm).size).toBe(2);
    for (const a of warm) expect(a.status).toBe(200);

    expect(cli(['keys', 'revoke', doomed.id], { env: demo.env }).status).toBe(0);

    const refused = await many(demo.base, doomed.key, 8, { 'if-none-match': warm[0]!.etag! });
    expect(workersOf(refused).size).toBe(2);
    for (const a of refused) {
      expect(a.status).toBe(401);
      expect(JSON.parse(a.body).code).toBe('revoked_api_key');
    }
  });

  it('a worker that dies is replaced, and the port keeps answering', async () => {
    const [victim] = childrenOf(demo.server.child.pid!);
    process.kill(victim!, 'SIGKILL');
    await until(
      'a replacement worker',
      () => /exited \(SIGKILL\); starting another/.test(demo.server.output().stderr),
      { everyMs: 50 },
    );
    await until(
      'two workers again',
      () => {
        const pids = childrenOf(demo.server.child.pid!);
        return pids.length === 2 && !pids.includes(victim!);
      },
      { everyMs: 50 },
    );
    // The replacement announces itself only by answering: ask on fresh connections until two workers have answered.
    const answers = await until(
      'answers from two workers',
      async () => {
        const six = await many(demo.base, demo.reader.key, 6);
        return workersOf(six).size === 2 && six;
      },
      { everyMs: 100 },
    );
    for (const a of answers) expect(a.status).toBe(200);
  });

  it('SIGTERM stops every worker, records last use, and exits 0', async () => {
    const pids = childrenOf(demo.server.child.pid!);
    expect(pids).toHaveLength(2);
    const exited = once(demo.server.child, 'exit');
    demo.server.child.kill('SIGTERM');
    const [code, signal] = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow(); // no orphaned worker
    const r = cli(['keys', 'list', '--json'], { env: demo.env });
    const used = (JSON.parse(r.stdout) as { id: string; last_used_at: string | null }[]).find(
      (k) => k.id === demo.reader.id,
    )!;
    expect(used.last_used_at).not.toBeNull();
  });
});

describe('listings serve --workers, values', () => {
  let file: string;
  demoDbForAll((t) => (file = t.file));

  it.each(['0', 'two', '1.5', '-1', '257'])(
    '--workers %s is a usage error: one line naming the option, exit 2',
    (value) => {
      const r = cli(['serve', '--port', '0', '--workers', value], { env: { LISTINGS_DB: file } });
      expect(r.status).toBe(2);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('--workers');
      expect(r.stderr).toContain('from 1 to 256, or auto');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    },
  );

  it('workers that cannot start (port in use): one line with the reason, exit 1, no process left behind', async () => {
    const blocker = createServer().listen(0, '127.0.0.1');
    await once(blocker, 'listening');
    try {
      const { port } = blocker.address() as AddressInfo;
      const r = cli(['serve', '--port', String(port), '--workers', '2'], { env: { LISTINGS_DB: file } });
      expect(r.status).toBe(1);
      expect(r.stderr.trimEnd().split('\n')).toEqual([
        expect.stringMatching(new RegExp(`^error: port ${port} .*already in use`)),
      ]);
      expect(execFileSync('ps', ['-eo', 'args='], { encoding: 'utf8' })).not.toContain(`--port ${port} --workers`);
    } finally {
      await new Promise((r) => blocker.close(r));
    }
  });

  it('--workers auto starts one worker per core', async () => {
    const server = spawnServer(['serve', '--port', String(await freePort()), '--quiet', '--workers', 'auto'], {
      LISTINGS_DB: file,
    });
    try {
      await server.ready;
      const n = availableParallelism();
      if (n > 1) expect(server.output().stderr).toContain(`${n} workers`);
      expect(childrenOf(server.child.pid!)).toHaveLength(n > 1 ? n : 0);
    } finally {
      await server.stop();
    }
  });
});

describe('listings serve --workers 2, stopped as systemd stops it', () => {
  let file: string;
  let reader: { id: string; key: string };
  demoDbForAll((t) => {
    file = t.file;
    reader = issueKey(t.db, demoJson().facilities[0].id, { rate_per_s: 100, burst: 200 });
  });

  /** One request on a connection of its own: its status, or the error that ended it. */
  const ask = (base: string, key: string) =>
    fetchOutcome(`${base}/external/listings`, { 'x-api-key': key, connection: 'close' });

  it.each([
    ['--workers 2: SIGTERM to the primary and every worker at once', ['--workers', '2']],
    ['one process: SIGTERM twice', []],
  ])(
    '%s: held requests are answered, last use is written, exit 0',
    async (_, extra) => {
      const server = spawnServer(['serve', '--port', String(await freePort()), '--quiet', ...extra], {
        LISTINGS_DB: file,
      });
      const exited = once(server.child, 'exit');
      const base = await server.ready;
      const children = extra.length > 0 ? childrenOf(server.child.pid!) : [];
      const workers = extra.length > 0 ? children : [server.child.pid!];
      expect(workers).toHaveLength(extra.length > 0 ? 2 : 1);
      expect(workersOf(await many(base, reader.key, 4)).size).toBe(workers.length); // every worker holds a use to write
      // Past the failure limit (30 per address in each worker), refusals again and again are held for a second: requests
      // in flight.
      const outcomes: string[] = [];
      const all = Array.from({ length: 300 }, () => ask(base, 'svc_live_bad').then((o) => void outcomes.push(o)));
      const port = Number(new URL(base).port);
      await until('every request answered or held by a worker', () => {
        const held = connectionsHeldBy(workers, port);
        return held > 0 && outcomes.length + held === 300;
      });
      // systemd's KillMode=control-group: the primary and its workers get SIGTERM together; the primary then sends its own.
      for (const pid of [server.child.pid!, ...workers]) process.kill(pid, 'SIGTERM');
      if (children.length === 0) process.kill(server.child.pid!, 'SIGTERM'); // as a worker gets it from the primary too
      await Promise.all(all);
      const [code, signal] = await exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
      const tally: Record<string, number> = {};
      for (const o of outcomes) tally[o] = (tally[o] ?? 0) + 1;
      expect(Object.keys(tally).sort(), server.output().stderr).toEqual(['401', '429']);
      const r = cli(['keys', 'list', '--json'], { env: { LISTINGS_DB: file } });
      const used = (JSON.parse(r.stdout) as { id: string; last_used_at: string | null }[]).find(
        (k) => k.id === reader.id,
      )!;
      expect(used.last_used_at).not.toBeNull();
    },
    60_000,
  );
});

/** A GET's status, or the code of the error that ended it. */
function fetchOutcome(url: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(String(res.statusCode)));
      res.on('error', (e: NodeJS.ErrnoException) => resolve(`error ${e.code}`));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(`error ${e.code}`));
    req.end();
  });
}
