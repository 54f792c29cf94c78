// Rate limits (OWASP API4): per-key token buckets with draft-ietf-httpapi-ratelimit-headers fields, 429 problem+json with
// Retry-After, limits set per key from the CLI, and failed authentication limited per client address (OWASP API2); on a
// SQLite file and on a node on PostgreSQL, where a limit changed through the CLI holds from the next request too.
import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_FAILURE_LIMIT } from '../server/app.ts';
import { DEFAULT_KEY_LIMIT } from '../server/domain/keys.ts';
import { listingIdOf } from '../server/domain/facility.ts';
import { cliAsync, issueKey } from './helpers/fixture.ts';
import { BACKENDS, useDemoServer } from './helpers/setup.ts';
import { call, type Reply } from './helpers/http.ts';
import { problemFault } from './helpers/problem.ts';
import { headerOf, rawGet, rawRequest, type RawReply } from './helpers/raw-http.ts';

const LIST = '/external/listings';

/** One Structured Field (RFC 8941) list member as the draft uses it: a String naming the policy, then integer parameters. */
const SF_ITEM = /^"([\x20\x21\x23-\x5b\x5d-\x7e]*)"((?:;[a-z*][a-z0-9_.*-]*=\d{1,15})*)$/;

function sfItem(value: string | undefined): { name: string; params: Record<string, number> } {
  const m = SF_ITEM.exec(value ?? '');
  if (!m) throw new Error(`not a structured-field item with integer parameters: ${JSON.stringify(value)}`);
  const params: Record<string, number> = {};
  for (const p of m[2]!.split(';').slice(1)) {
    const [k, v] = p.split('=');
    params[k!] = Number(v);
  }
  return { name: m[1]!, params };
}

function expectRateLimited(r: Reply) {
  expect(r.status).toBe(429);
  expect(problemFault(429, r.headers['content-type'], r.text)).toBeUndefined();
  expect(JSON.parse(r.text).code).toBe('rate_limited');
  expect(r.headers['retry-after']).toMatch(/^[1-9]\d*$/);
}

describe.each(BACKENDS)('on %s', (backend) => {
  let keyA: { key: string; id: string };
  // Default limits throughout, on a socket (failed authentication is limited per address): this file is about them.
  const demo = useDemoServer({ backend, prepare: (db) => void (keyA = issueKey(db, 'wro-1')) });
  const env = () => ({ LISTINGS_DB: demo.location });

  // The CLI runs beside the in-process server without blocking it (a blocked event loop would stall the server too).
  async function createKeyWithCli(args: string[]): Promise<{ key: string; id: string }> {
    const r = await cliAsync(['keys', 'create', '--facility', 'wro-1', '--json', ...args], { env: env() });
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    return { key: out.key, id: out.id };
  }

  describe('RateLimit-Policy and RateLimit headers (draft-ietf-httpapi-ratelimit-headers-10)', () => {
    it('every keyed answer carries both fields as a String item with q/w and r/t integer parameters', async () => {
      const paths = [LIST, `${LIST}/${listingIdOf('wro-1', 'M-07')}`, `${LIST}/lst_nope`, `${LIST}?sort=nope`];
      for (const path of paths) {
        const r = await call(demo.app.url, path, { key: keyA.key });
        const policy = sfItem(r.headers['ratelimit-policy']);
        const limit = sfItem(r.headers['ratelimit']);
        expect(policy.name).toBe('key');
        expect(limit.name).toBe(policy.name);
        expect(Object.keys(policy.params).sort()).toEqual(['q', 'w']);
        expect(Object.keys(limit.params).sort()).toEqual(['r', 't']);
        expect(policy.params.q).toBe(DEFAULT_KEY_LIMIT.burst);
        expect(policy.params.w).toBeGreaterThanOrEqual(1);
        expect(limit.params.r).toBeLessThan(policy.params.q!);
        expect(limit.params.t).toBeGreaterThanOrEqual(0);
      }
    });

    it("the OpenAPI document's examples are what a new key with the default limit gets first", async () => {
      const { key } = await createKeyWithCli([]);
      const first = await call(demo.app.url, LIST, { key });
      expect(first.status).toBe(200);
      const doc = JSON.parse((await call(demo.app.url, '/openapi.json')).text);
      const documented = doc.paths[LIST].get.responses['200'].headers;
      expect(documented['RateLimit-Policy'].description).toContain(`\`${first.headers['ratelimit-policy']}\``);
      expect(documented.RateLimit.description).toContain(`\`${first.headers['ratelimit']}\``);
    });

    it('remaining counts down by one per request', async () => {
      // One request per hour refills nothing during the test, so the count is exact however slow the machine is.
      const { key } = await createKeyWithCli(['--rate', '1/h', '--burst', '10']);
      const rs: number[] = [];
      for (let i = 0; i < 5; i++)
        rs.push(sfItem((await call(demo.app.url, LIST, { key })).headers['ratelimit']).params.r!);
      expect(rs).toEqual([9, 8, 7, 6, 5]);
    });

    it('answers that did not authenticate a key carry no rate-limit fields, and browsers may read them where present', async () => {
      const unkeyed = [
        await call(demo.app.url, LIST),
        await call(demo.app.url, '/openapi.json'),
        await call(demo.app.url, LIST, { key: 'svc_live_' + 'x'.repeat(32) }),
      ];
      for (const r of unkeyed) {
        expect(r.headers['ratelimit']).toBeUndefined();
        expect(r.headers['ratelimit-policy']).toBeUndefined();
      }
      const exposed = (await call(demo.app.url, LIST, { key: keyA.key })).headers[
        'access-control-expose-headers'
      ]!.split(',').map((h) => h.trim().toLowerCase());
      expect(exposed).toEqual(expect.arrayContaining(['ratelimit', 'ratelimit-policy', 'retry-after']));
    });
  });

  describe('per-key limits', () => {
    it('a burst is served, then 429 rate_limited problem+json with Retry-After, and Retry-After is not before the reset', async () => {
      // 1 request per hour: nothing refills during the test, however slow the machine.
      const { key } = await createKeyWithCli(['--rate', '1/h', '--burst', '5']);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await call(demo.app.url, LIST, { key })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      const limited = await call(demo.app.url, LIST, { key });
      expectRateLimited(limited);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(3000);
      expect(sfItem(limited.headers['ratelimit']).params.r).toBe(0);
      // draft section 6: Retry-After SHOULD NOT reference a point in time earlier than the reset parameter.
      expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(
        sfItem(limited.headers['ratelimit']).params.t!,
      );
      // Every route under the key is limited, HEAD included; other keys are not.
      expectRateLimited(await call(demo.app.url, `${LIST}/${listingIdOf('wro-1', 'M-07')}`, { key }));
      expect((await call(demo.app.url, LIST, { key, method: 'HEAD' })).status).toBe(429);
      expect((await call(demo.app.url, LIST, { key: keyA.key })).status).toBe(200);
    });

    it('keys create --rate 20/s --burst 100 is the policy the server announces', async () => {
      const { key } = await createKeyWithCli(['--rate', '20/s', '--burst', '100']);
      const r = await call(demo.app.url, LIST, { key });
      expect(r.status).toBe(200);
      expect(sfItem(r.headers['ratelimit-policy']).params).toEqual({ q: 100, w: 5 });
      expect(sfItem(r.headers['ratelimit']).params.r).toBe(99);
    });

    it('keys create --burst alone keeps the default rate and uses that burst', async () => {
      const { key } = await createKeyWithCli(['--burst', '7']);
      const r = await call(demo.app.url, LIST, { key });
      expect(r.status).toBe(200);
      expect(sfItem(r.headers['ratelimit-policy']).params.q).toBe(7);
      expect(sfItem(r.headers['ratelimit']).params.r).toBe(6);
    });

    it('keys update --rate/--burst takes effect on the running server from the next request', async () => {
      const { key, id } = await createKeyWithCli([]);
      expect(sfItem((await call(demo.app.url, LIST, { key })).headers['ratelimit-policy']).params.q).toBe(
        DEFAULT_KEY_LIMIT.burst,
      );
      const u = await cliAsync(['keys', 'update', id, '--rate', '1/h', '--burst', '2'], { env: env() });
      expect(u.status, u.stderr).toBe(0);
      const first = await call(demo.app.url, LIST, { key });
      expect(first.status).toBe(200);
      expect(sfItem(first.headers['ratelimit-policy']).params.q).toBe(2);
      // The bucket keeps what was already taken: at most 2 tokens, one of them used just now.
      expect(sfItem(first.headers['ratelimit']).params.r).toBeLessThanOrEqual(1);
      const after = [await call(demo.app.url, LIST, { key }), await call(demo.app.url, LIST, { key })];
      expect(after.map((r) => r.status)).toContain(429);
    });
  });

  describe('failed authentication is limited per client address', () => {
    it('many bad keys get 429 from one address, while a valid key from it and bad keys from another address still get through', async () => {
      // Fresh addresses (all of 127/8 is loopback on Linux), so no other test in this file has used their buckets.
      const [attacker, bystander] = ['127.0.0.3', '127.0.0.4'];
      const from = (address: string, headers: Record<string, string>) =>
        rawRequest(demo.app.port, rawGet(LIST, headers), { localAddress: address });
      const bad = (i: number) => `svc_live_${String(i).padStart(32, 'Q')}`;
      const started = performance.now();
      // Three times the burst, ten at a time: far more than the refill (5/s) can cover however slow this machine is.
      const replies: RawReply[] = [];
      for (let round = 0; round < (DEFAULT_AUTH_FAILURE_LIMIT.burst * 3) / 10; round++) {
        replies.push(
          ...(await Promise.all(
            Array.from({ length: 10 }, (_, i) => from(attacker, { 'X-API-Key': bad(round * 10 + i) })),
          )),
        );
      }
      const seconds = (performance.now() - started) / 1000;
      const allowed = replies.filter((r) => r.status === 401).length;
      const limited = replies.filter((r) => r.status === 429);
      expect(replies.every((r) => r.status === 401 || r.status === 429)).toBe(true);
      expect(allowed).toBeGreaterThanOrEqual(DEFAULT_AUTH_FAILURE_LIMIT.burst);
      expect(allowed).toBeLessThanOrEqual(
        DEFAULT_AUTH_FAILURE_LIMIT.burst + Math.ceil(seconds * DEFAULT_AUTH_FAILURE_LIMIT.rate) + 1,
      );
      expect(limited.length).toBeGreaterThan(0);
      for (const r of limited) {
        expect(problemFault(429, headerOf(r, 'content-type'), r.body.toString())).toBeUndefined();
        expect(JSON.parse(r.body.toString()).code).toBe('rate_limited');
        const retry = headerOf(r, 'retry-after');
        expect(retry).toMatch(/^[1-9]\d*$/);
        expect(JSON.parse(r.body.toString()).detail).toBe(`Too many failed authentications; retry in ${retry} s.`);
        expect(Number(headerOf(r, 'content-length'))).toBe(r.body.length);
        expect(headerOf(r, 'access-control-allow-origin')).toBe('*');
        expect(headerOf(r, 'x-content-type-options')).toBe('nosniff');
        // One of each header: the refusal's bytes are shared between answers, its request id is each answer's own.
        for (const [name, values] of Object.entries(r.headers)) expect(values, name).toHaveLength(1);
      }
      expect(new Set(limited.map((r) => headerOf(r, 'x-request-id'))).size).toBe(limited.length);
      // Missing keys count as failures too (fifty at once: the bucket refills one token per 200 ms meanwhile).
      const missing = await Promise.all(Array.from({ length: 50 }, () => from(attacker, {})));
      expect(missing.map((r) => r.status)).toContain(429);

      // The same address with a valid key: served.
      expect((await from(attacker, { 'X-API-Key': keyA.key })).status).toBe(200);
      // Another address has its own bucket.
      const other = await from(bystander, { 'X-API-Key': bad(999) });
      expect(other.status).toBe(401);
      expect(JSON.parse(other.body.toString()).code).toBe('invalid_api_key');
      expect(headerOf(other, 'retry-after')).toBeUndefined();
    });
  });
});
