// The request log's text line is the very JSON that log() makes of the same entry, whatever the path holds.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect, it, vi } from 'vitest';
import { JsonLog, writeStdout } from './log.ts';

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

it('writes its lines to fd 1 itself, not through process.stdout, whole however long, through a pipe', () => {
  // The child's process.stdout refuses every write: whatever reaches the pipe came through fd 1 directly.
  const script = `
    import { JsonLog } from './server/http/transport/log.ts';
    process.stdout.write = () => { throw new Error('process.stdout.write was called'); };
    const log = new JsonLog();
    for (let i = 0; i < 3000; i++) log.request('req-' + i, 'GET', '/external/listings', 200, i / 8, 'key_' + (i % 7));
    log.flush();`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  expect(run.status, run.stderr).toBe(0);
  const lines = run.stdout.trimEnd().split('\n');
  expect(lines).toHaveLength(3000);
  // Far more than a pipe's 64 KiB buffer, in the order logged.
  expect(run.stdout.length).toBeGreaterThan(256 * 1024);
  lines.forEach((line, i) =>
    expect(JSON.parse(line)).toMatchObject({ request_id: `req-${i}`, duration_ms: i / 8, key_id: `key_${i % 7}` }),
  );
});

it('hands what fd 1 cannot take to process.stdout, from the first byte not written', () => {
  const dir = mkdtempSync(join(tmpdir(), 'log-'));
  writeFileSync(join(dir, 'read-only'), '');
  const fd = openSync(join(dir, 'read-only'), 'r'); // open for reading only: every write fails (EBADF)
  const written: Buffer[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    written.push(Buffer.from(chunk as Uint8Array));
    return true;
  });
  try {
    writeStdout('{"time":"t","level":"info"}\n', fd);
  } finally {
    spy.mockRestore();
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
  expect(Buffer.concat(written).toString()).toBe('{"time":"t","level":"info"}\n');
});
