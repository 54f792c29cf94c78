// The request log's text line is the very JSON that log() makes of the same entry, whatever the path holds.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, it, vi } from 'vitest';
import { JsonLog, stdoutWriter } from './log.ts';

it("writes a request's line as log() writes the same entry, for any path and method", () => {
  fc.assert(
    fc.property(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('GET', 'HEAD', 'OPTIONS', 'DELETE'),
      fc.integer({ min: 100, max: 599 }),
      fc.double({ min: 0, max: 1e5, noNaN: true }).map((ms) => Math.round(ms * 1000) / 1000),
      fc.option(fc.constantFrom('key_abcdefghijklmnop', 'key_0123456789ABCDEF'), { nil: undefined }),
      (path, method, status, ms, keyId) => {
        const written: string[] = [];
        const log = new JsonLog((t) => written.push(t));
        const id = '0f9c3a52-7d1e-4b8a-9c2d-00000000002a';
        log.request(id, method, path, status, ms, keyId);
        log.log({ level: 'info', request_id: id, method, path, status, duration_ms: ms, key_id: keyId ?? null });
        log.flush();
        const [viaRequest, viaLog] = written.join('').trimEnd().split('\n');
        const time = /^\{"time":"[^"]+",/;
        expect(viaRequest!.replace(time, '')).toBe(viaLog!.replace(time, ''));
        expect(JSON.parse(viaRequest!)).toMatchObject({ path, method, status, duration_ms: ms, key_id: keyId ?? null });
      },
    ),
    { numRuns: 2000 },
  );
});

it('writes every line of a run right when the route, the key and the time change from line to line', () => {
  const entry = fc.record({
    path: fc.constantFrom('/external/listings', '/external/listings/fac-1--U-1', '/rent/fac-1/U-1', ''),
    method: fc.constantFrom('GET', 'HEAD'),
    status: fc.constantFrom(200, 304, 401, 429),
    ms: fc.constantFrom(0, 0.125, 3, 12.5),
    keyId: fc.option(fc.constantFrom('key_abcdefghijklmnop', 'key_0123456789ABCDEF'), { nil: undefined }),
  });
  fc.assert(
    fc.property(fc.array(entry, { minLength: 1, maxLength: 30 }), (entries) => {
      const written: string[] = [];
      const log = new JsonLog((t) => written.push(t));
      entries.forEach((e, i) => log.request(`id-${i}`, e.method, e.path, e.status, e.ms, e.keyId));
      log.flush();
      const lines = written.join('').trimEnd().split('\n');
      expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(
        entries.map((e, i) => ({
          time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          level: 'info',
          request_id: `id-${i}`,
          method: e.method,
          path: e.path,
          status: e.status,
          duration_ms: e.ms,
          key_id: e.keyId ?? null,
        })),
      );
    }),
    { numRuns: 500 },
  );
});

it('writes its lines to fd 1 itself, not through process.stdout, whole however long', () => {
  // The child's process.stdout.write throws, so whatever reaches its stdout (a file) came through fd 1 directly.
  const dir = mkdtempSync(join(tmpdir(), 'log-'));
  const out = openSync(join(dir, 'out'), 'w');
  const script = `
    import { JsonLog } from './server/http/transport/log.ts';
    process.stdout.write = () => { throw new Error('process.stdout.write was called'); };
    const log = new JsonLog();
    for (let i = 0; i < 3000; i++) log.request('req-' + i, 'GET', '/external/listings', 200, i / 8, 'key_' + (i % 7));
    log.flush();`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    stdio: ['ignore', out, 'pipe'],
  });
  closeSync(out);
  const text = readFileSync(join(dir, 'out'), 'utf8');
  rmSync(dir, { recursive: true, force: true });
  expect(run.status, run.stderr).toBe(0);
  const lines = text.trimEnd().split('\n');
  expect(lines).toHaveLength(3000);
  lines.forEach((line, i) =>
    expect(JSON.parse(line)).toMatchObject({ request_id: `req-${i}`, duration_ms: i / 8, key_id: `key_${i % 7}` }),
  );
});

it('loses and reorders no line when a pipe fills up and its reader comes back while lines still wait', async () => {
  // The reader stops until fd 1 has refused a write (EAGAIN) and lines wait in process.stdout's queue, then reads
  // while the child goes on logging: a direct write must not overtake the lines still queued.
  const script = `
    import { JsonLog } from './server/http/transport/log.ts';
    const write = process.stdout.write.bind(process.stdout);
    let queued = 0;
    process.stdout.write = (chunk) => (queued++, write(chunk));
    const log = new JsonLog();
    let i = 0;
    let told = false;
    const batch = () => {
      for (const end = i + 500; i < end; i++) log.request('req-' + i, 'GET', '/external/listings', 200, 0.5, 'key_1');
      log.flush();
      if (queued > 0 && !told) told = console.error('queued') === undefined;
      if (i < 40000) setImmediate(batch);
    };
    batch();`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pause();
  const chunks: Buffer[] = [];
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    if (stderr.includes('queued') && !child.stdout.readableFlowing) child.stdout.resume();
  });
  child.stdout.on('data', (d: Buffer) => chunks.push(d));
  const code = await new Promise((resolve) => child.once('close', resolve));
  expect(code, stderr).toBe(0);
  expect(stderr).toContain('queued');
  const lines = Buffer.concat(chunks).toString().trimEnd().split('\n');
  expect(lines).toHaveLength(40000);
  const outOfOrder = lines.findIndex(
    (line, i) => (JSON.parse(line) as { request_id: string }).request_id !== `req-${i}`,
  );
  expect(outOfOrder).toBe(-1);
});

it('hands what fd 1 cannot take to process.stdout, from the first byte not written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-'));
  const file = join(dir, 'log');
  writeFileSync(file, '');
  const readOnly = openSync(file, 'r'); // every write fails (EBADF)
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    written.push(Buffer.from(chunk as Uint8Array).toString());
    return true;
  });
  try {
    const write = stdoutWriter(readOnly);
    write('{"n":1}\n');
    write('{"n":2}\n');
  } finally {
    spy.mockRestore();
    closeSync(readOnly);
    rmSync(dir, { recursive: true, force: true });
  }
  expect(written).toEqual(['{"n":1}\n', '{"n":2}\n']);
});

it('keeps one timer at a time, and writes the lines after a flush by count when it fires', () => {
  vi.useFakeTimers();
  try {
    const written: string[] = [];
    const log = new JsonLog((t) => written.push(t));
    for (let i = 0; i < 700; i++) log.request(`req-${i}`, 'GET', '/external/listings', 200, 1, undefined);
    // Two flushes by count (256 lines each), 188 lines waiting, and still the one timer the first line started.
    expect(written.join('').split('\n').length - 1).toBe(512);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(50);
    expect(written.join('').split('\n').length - 1).toBe(700);
    expect(vi.getTimerCount()).toBe(0);
    log.request('req-700', 'GET', '/external/listings', 200, 1, undefined);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(50);
    expect(written.at(-1)).toContain('"request_id":"req-700"');
  } finally {
    vi.useRealTimers();
  }
});
