// The HTTP fuzzing is not vacuous: its oracle flags each fault it must, and its generators reach every kind of answer.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GeneratedFacility } from './helpers/data.ts';
import { fuzzOracle } from './helpers/fuzz-oracle.ts';
import { bytesOf, type Req } from './helpers/fuzz-requests.ts';
import { A, API, B, useFuzzServer, useFuzzWorld } from './helpers/fuzz-world.ts';
import { rawRequest, type RawReply } from './helpers/raw-http.ts';
import { bareFacility } from './helpers/rental-info.ts';

const world = useFuzzWorld();
const fuzzServer = useFuzzServer(world);
const { keys } = world;
const { faults, requestArbitrary } = fuzzOracle(keys);

describe('fuzzing the HTTP surface', () => {
  it('the oracle flags what it must (another facility, a 5xx, a bare error, a missing nosniff)', () => {
    const req = (key: string): Req => ({
      method: 'GET',
      target: API,
      version: '1.1',
      headers: [
        ['Host', 'x'],
        ['X-API-Key', key],
      ],
      body: '',
    });
    const reply = (status: number, headers: Record<string, string>, body: string): RawReply => ({
      status,
      interim: [],
      body: Buffer.from(body),
      headers: Object.fromEntries(
        Object.entries({ 'x-content-type-options': 'nosniff', ...headers }).map(([k, v]) => [k, [v]]),
      ),
    });
    const listOf = (f: GeneratedFacility) => JSON.stringify({ facility: bareFacility(f.id, f.marker), listings: [] });
    const json = { 'content-type': 'application/json; charset=utf-8' };
    expect(faults(req(keys.a), reply(200, json, listOf(A)), false)).toEqual([]);
    expect(faults(req(keys.a), reply(200, json, listOf(B)), false).join()).toMatch(/fuzz-b's data/);
    expect(faults(req(keys.revokedA), reply(200, json, listOf(A)), false).join()).toMatch(/without a valid key/);
    expect(faults(req(keys.a), reply(500, { 'content-type': 'application/problem+json' }, '{}'), false).join()).toMatch(
      /status 500/,
    );
    expect(faults(req(keys.a), reply(404, { 'content-type': 'text/plain' }, 'nope'), false).join()).toMatch(
      /content-type/,
    );
    expect(
      faults(
        req(keys.a),
        { ...reply(200, json, listOf(A)), headers: { 'content-type': [json['content-type']] } },
        false,
      ).join(),
    ).toMatch(/nosniff/);
  });

  it('the generators reach every kind of answer (the property is not vacuous)', async () => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArbitrary(), async (r) => {
        const reply = await rawRequest(fuzzServer.port, bytesOf(r), { timeoutMs: 15_000 });
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      }),
      { numRuns: 400, seed: 42 },
    );
    for (const s of [200, 400, 401, 403, 404, 405, 414])
      expect(statuses.get(s) ?? 0, `status ${s}: ${JSON.stringify([...statuses])}`).toBeGreaterThan(0);
  }, 60_000);
});
