// The request log's text line is the very JSON that log() makes of the same entry, whatever the path holds.
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { JsonLog } from './log.ts';

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
