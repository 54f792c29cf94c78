// 60 s at saturation: autocannon against `listings serve` (a child process, logging as in production) with every
// facility's key. Zero errors, nothing but 2xx/3xx, and resident memory grows by less than 10% after warm-up.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingIdOf } from '../server/store/facilities.ts';
import { logFileFor } from './helpers/capture.ts';
import { BIN, demoDb, demoJson, freePort, issueKey, REPO, tempDir } from './helpers/fixture.ts';

const SECONDS = 60;
const WARM_UP_SECONDS = 10;
/** Connections: enough to keep the server busy on every core we have; autocannon itself needs one of them. */
const CONNECTIONS = 32;

let dir: string;
let cleanup: () => void;
let server: ChildProcess;
let base: string;
const keys: { facility: string; key: string }[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  const demo = demoDb(dir);
  for (const f of demoJson().facilities) keys.push({ facility: f.id, key: issueKey(demo.db, f.id, { rate_per_s: 1_000_000, burst: 1_000_000 }).key });
  demo.db.close();
  const port = await freePort();
  // The request log goes straight to a file (scanned by the run's key-leak check), so a busy pipe cannot hold the server back.
  const log = openSync(logFileFor('soak') ?? join(dir, 'soak.log'), 'a');
  server = spawn(process.execPath, [BIN, 'serve', '--port', String(port)], { cwd: REPO, env: { ...process.env, LISTINGS_DB: demo.file }, stdio: ['ignore', log, 'pipe'] });
  closeSync(log);
  let stderr = '';
  base = await new Promise<string>((resolve, reject) => {
    server.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
      const m = /at (http:\/\/[^\s]+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    server.once('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
});
afterAll(async () => {
  if (server?.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  cleanup?.();
});

/** Resident set size of a process, in kB, from /proc. */
function rssKb(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('soak', () => {
  it(`${SECONDS} s at saturation: zero errors, only 2xx/3xx, RSS growth under 10% after a ${WARM_UP_SECONDS} s warm-up`, async () => {
    // No HEAD: autocannon's parser waits for a body after a HEAD answer's Content-Length, and the connection stalls.
    const requests = keys.flatMap(({ facility, key }) => {
      const headers = { 'x-api-key': key };
      const listing = demoJson().facilities.find((f) => f.id === facility)!.listings.find((l: { active: boolean }) => l.active).code;
      return [
        { method: 'GET', path: '/external/listings', headers },
        { method: 'GET', path: '/external/listings?sort=-price&available=true', headers },
        { method: 'GET', path: `/external/listings/${listingIdOf(facility, listing)}`, headers },
      ];
    });
    const pid = server.pid!;
    const samples: { at: number; kb: number }[] = [];
    const started = performance.now();
    const sampler = setInterval(() => samples.push({ at: (performance.now() - started) / 1000, kb: rssKb(pid) }), 500);
    let result: Awaited<ReturnType<typeof autocannon>>;
    try {
      result = await autocannon({ url: base, connections: CONNECTIONS, duration: SECONDS, requests });
    } finally {
      clearInterval(sampler);
    }
    // RSS: the median of the samples in the second after warm-up, against the median of the last two seconds.
    const warm = median(samples.filter((s) => s.at >= WARM_UP_SECONDS && s.at < WARM_UP_SECONDS + 1).map((s) => s.kb));
    const end = median(samples.filter((s) => s.at >= SECONDS - 2).map((s) => s.kb));
    const growth = (end - warm) / warm;

    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(result['2xx']).toBeGreaterThan(1000);
    expect(growth).toBeLessThan(0.1);
    if (process.env.LISTINGS_TEST_FIGURES) {
      console.error(`soak: ${result['2xx']} requests in ${result.duration} s, ${Math.round(result.requests.average)} req/s average, p99 ${result.latency.p99} ms; RSS ${warm} kB after warm-up -> ${end} kB at the end (${(growth * 100).toFixed(1)}%)`);
    }
  }, 120_000);
});
