// 60 s at saturation: autocannon against `listings serve` (a child process, logging as in production) with every
// facility's key. Zero errors, nothing but 2xx/3xx, and resident memory grows by less than 10% after warm-up.
//
// Warm-up lasts until V8 has done two full (mark-compact) collections under load, and at least 10 s: until then V8
// is still sizing its old generation (RSS climbs by 10-30 MB, at any request rate, then falls back and stays flat), so
// a fixed warm-up measured that climb whenever a loaded machine slowed the server down. The server runs with
// --trace-gc (it only adds lines to its stdout) so the test can see those collections and the live heap they leave.
//
// In `npm run test:slow`, alone on the machine (in the default suite it shared the 2 cores with other test files).
// Margins, for a loaded 2-core machine: RSS at the end may exceed its peak around the start of the measured minute
// (the last 30 s of warm-up and the first 5 s) by under 10%. A peak, not a median of the first seconds, because V8's
// memory reducer may run a full collection at any moment (here about 105 s after start, under load), dropping RSS by
// 20 MB for the next 10-15 s: a window that opened just after one measured the climb back as growth. The live heap at
// the end may be a quarter plus 1 MB above the one after warm-up (its normal spread is about 1 MB on a 10 MB heap),
// both read from a heap snapshot the server writes on SIGUSR2 between two loads: with this server's little garbage, V8
// may do no full collection of its own in 150 s. Errors, timeouts and non-2xx answers stay at zero however slow the
// machine.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listingIdOf } from '../server/domain/facility.ts';
import { logFileFor } from './helpers/capture.ts';
import { BIN, demoDb, demoJson, freePort, issueKey, REPO, tempDir } from './helpers/fixture.ts';

const SECONDS = 60;
const WARM_UP_SECONDS = 10;
/** Longest warm-up: a machine slow enough to need more measures the climb too, and says so in the failure message. */
const MAX_WARM_UP_SECONDS = 90;
/** Full collections under load that end the warm-up (the first often comes before V8 has grown its heap). */
const WARM_UP_COLLECTIONS = 2;
/** Connections: enough to keep the server busy on every core we have; autocannon itself needs one of them. */
const CONNECTIONS = 32;

let dir: string;
let cleanup: () => void;
let server: ChildProcess;
let base: string;
let logFile: string;
const keys: { facility: string; key: string }[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = tempDir());
  const demo = demoDb(dir);
  for (const f of demoJson().facilities)
    keys.push({ facility: f.id, key: issueKey(demo.db, f.id, { rate_per_s: 1_000_000, burst: 1_000_000 }).key });
  demo.db.close();
  const port = await freePort();
  // The request log goes straight to a file (scanned by the run's key-leak check), so a busy pipe cannot hold the server back.
  logFile = logFileFor('soak') ?? join(dir, 'soak.log');
  const log = openSync(logFile, 'a');
  // SIGUSR2 writes a heap snapshot into dir, after full collections that --trace-gc logs: a live heap read on demand.
  const flags = ['--trace-gc', '--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`];
  server = spawn(process.execPath, [...flags, BIN, 'serve', '--port', String(port)], {
    cwd: REPO,
    env: { ...process.env, LISTINGS_DB: demo.file },
    stdio: ['ignore', log, 'pipe'],
  });
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

/** A full collection: V8's own ("Mark-Compact 32.5 (64.9) -> 10.4 (56.1)") or its memory reducer's ("Mark-Compact (reduce) ..."). */
const MARK_COMPACT =
  /^\[\d+:0x[0-9a-f]+\]\s+[\d.]+ ms: Mark-Compact (?:\(reduce\) )?[\d.]+ \([\d.]+\) -> ([\d.]+) \(/gm;
const gcLog = { offset: 0, carry: '', live: [] as number[] };

/**
 * The live heap (MB) left by each full collection so far, from --trace-gc's "Mark-Compact 32.5 (64.9) -> 10.4 (56.1)
 * MB" lines in the server's stdout; reads only what the log gained since the last call (it grows by hundreds of MB).
 */
function fullCollections(): number[] {
  const fd = openSync(logFile, 'r');
  try {
    const chunk = Buffer.alloc(4 * 1024 * 1024);
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, gcLog.offset)) > 0;) {
      gcLog.offset += n;
      const text = gcLog.carry + chunk.toString('latin1', 0, n);
      const cut = text.lastIndexOf('\n') + 1;
      for (const m of text.slice(0, cut).matchAll(MARK_COMPACT)) gcLog.live.push(Number(m[1]));
      gcLog.carry = text.slice(cut);
    }
  } finally {
    closeSync(fd);
  }
  return gcLog.live;
}

const mb = (kb: number) => Math.round(kb / 102.4) / 10;

/** The live heap (MB) after the full collections of a heap snapshot the server is asked for now, between two loads. */
async function liveHeapNow(pid: number): Promise<number> {
  const before = fullCollections().length;
  process.kill(pid, 'SIGUSR2');
  const deadline = performance.now() + 60_000;
  while (fullCollections().length < before + 2) {
    if (performance.now() > deadline) throw new Error('the server logged no full collection for its heap snapshot');
    await new Promise((r) => setTimeout(r, 100));
  }
  return fullCollections().at(-1)!;
}

describe('soak', () => {
  it(
    `${SECONDS} s at saturation after warm-up: zero errors, only 2xx/3xx, RSS growth under 10%, a flat live heap`,
    async () => {
      // No HEAD: autocannon's parser waits for a body after a HEAD answer's Content-Length, and the connection stalls.
      const requests = keys.flatMap(({ facility, key }) => {
        const headers = { 'x-api-key': key };
        const listing = demoJson()
          .facilities.find((f) => f.id === facility)!
          .listings.find((l: { active: boolean }) => l.active).code;
        return [
          { method: 'GET', path: '/external/listings', headers },
          { method: 'GET', path: '/external/listings?sort=-price&available=true', headers },
          { method: 'GET', path: `/external/listings/${listingIdOf(facility, listing)}`, headers },
        ];
      });
      const pid = server.pid!;
      const options = { url: base, connections: CONNECTIONS, requests };

      // Warm-up: load until WARM_UP_COLLECTIONS full collections (at least WARM_UP_SECONDS, at most MAX_WARM_UP_SECONDS).
      // RSS is read every 0.5 s from its start.
      const rss: { time: number; kb: number }[] = [];
      // Not while the server writes a heap snapshot (below): that takes memory of its own for a moment.
      let snapshotting = false;
      const sampler = setInterval(() => snapshotting || rss.push({ time: performance.now(), kb: rssKb(pid) }), 500);
      const liveHeap = async () => {
        snapshotting = true;
        try {
          return await liveHeapNow(pid);
        } finally {
          snapshotting = false;
        }
      };
      const before = fullCollections().length;
      const warmUpStarted = performance.now();
      let warmUp: Awaited<ReturnType<typeof autocannon>>;
      let result: Awaited<ReturnType<typeof autocannon>>;
      let collectedInWarmUp: number;
      let started: number;
      let liveAfterWarmUp: number;
      let liveAtEnd: number;
      try {
        const warming = autocannon({ ...options, duration: MAX_WARM_UP_SECONDS });
        const poll = setInterval(() => {
          if (
            performance.now() - warmUpStarted >= WARM_UP_SECONDS * 1000 &&
            fullCollections().length >= before + WARM_UP_COLLECTIONS
          )
            warming.stop();
        }, 250);
        try {
          warmUp = await warming;
        } finally {
          clearInterval(poll);
        }
        collectedInWarmUp = fullCollections().length - before;
        liveAfterWarmUp = await liveHeap();
        started = performance.now();
        result = await autocannon({ ...options, duration: SECONDS });
        liveAtEnd = await liveHeap();
      } finally {
        clearInterval(sampler);
      }
      const warmUpSeconds = (started - warmUpStarted) / 1000;
      // Seconds from the start of the measured minute (negative in the warm-up), from 30 s before it.
      const samples = rss.map((s) => ({ at: (s.time - started) / 1000, kb: s.kb })).filter((s) => s.at >= -30);
      // RSS: its peak from 30 s before the measured minute to 10 s into it, against the median of the last five seconds'.
      // The heap snapshot just before the minute gives memory back, which the load takes again in its first seconds (CI:
      // 122 -> 113 MB, then 176 MB 6 s in, 181 MB at the end): what grows after that is what this compares.
      const warm = Math.max(...samples.filter((s) => s.at < 10).map((s) => s.kb));
      const end = median(samples.filter((s) => s.at >= SECONDS - 5).map((s) => s.kb));
      const growth = (end - warm) / warm;
      // The live heap at the end of the measured minute against the one after warm-up, each read the same way (a heap
      // snapshot's full collections, the load stopped): a leak of even a few bytes per request shows here as tens of
      // MB, and the normal spread is about 1 MB on a 10 MB heap. (Compared between V8's own full collections under load
      // instead, the first could come seconds into the load, before the caches had filled: 11.6 -> 15.7 MB in CI,
      // where the heap after a forced collection stayed flat.)
      const all = fullCollections();
      const live = all.slice(before);

      for (const run of [warmUp, result]) {
        expect(run.errors).toBe(0);
        expect(run.timeouts).toBe(0);
        expect(run.non2xx).toBe(0);
      }
      expect(result['2xx']).toBeGreaterThan(1000);
      const story = `warm-up ${warmUpSeconds.toFixed(1)} s (${collectedInWarmUp} full collections); RSS MB every 0.5 s from 30 s before the measured minute: ${samples.map((x) => mb(x.kb)).join(' ')}; live heap after full collections (MB): ${live.join(' ')}; after warm-up ${liveAfterWarmUp!} MB, at the end ${liveAtEnd!} MB`;
      expect(growth, story).toBeLessThan(0.1);
      // The log is read right (the server's start-up makes at least one full collection); the comparison needs two.
      expect(all.length, story).toBeGreaterThan(0);
      expect(liveAtEnd!, story).toBeLessThanOrEqual(liveAfterWarmUp! * 1.25 + 1);
      if (process.env.LISTINGS_TEST_FIGURES) {
        console.error(
          `soak: ${result['2xx']} requests in ${result.duration} s, ${Math.round(result.requests.average)} req/s average, p99 ${result.latency.p99} ms; RSS ${mb(warm)} MB after warm-up -> ${mb(end)} MB at the end (${(growth * 100).toFixed(1)}%); ${story}`,
        );
      }
    },
    (MAX_WARM_UP_SECONDS + SECONDS + 30) * 1000,
  );
});
