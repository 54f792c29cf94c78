// The S3 test helpers against the real thing: s3rver behind its signature check, the real SDK, the fault proxy between them.
import { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startFaultProxy, type FaultPlan } from './helpers/fault-proxy.ts';
import { call } from './helpers/http.ts';
import { CREDENTIALS, s3Client, startS3, type S3Server } from './helpers/s3-server.ts';

let s3: S3Server;
let client: S3Client;

beforeAll(async () => {
  s3 = await startS3();
  client = s3Client(s3.endpoint);
});

afterAll(async () => {
  client?.destroy();
  await s3?.stop();
});

const put = (via: S3Client, key: string, body: string | Readable = `{"key":"${key}"}`) =>
  via.send(
    new PutObjectCommand({
      Bucket: s3.bucket,
      Key: key,
      Body: body,
      ContentType: 'application/json',
      ...(typeof body === 'string' ? {} : { ContentLength: 7 }),
    }),
  );

const stored = async (key: string) => (await call(s3.objectUrl(key), '')).text;

/** A proxy in front of the shared server with an SDK client through it; both closed when the test ends. */
async function proxied(plan: FaultPlan, maxAttempts: number) {
  const proxy = await startFaultProxy(s3.endpoint, plan);
  const via = s3Client(proxy.endpoint, { maxAttempts });
  onTestFinished(async () => {
    via.destroy();
    await proxy.stop();
  });
  return { proxy, via };
}

describe('startS3', () => {
  it('stores, serves and lists objects through the SDK', async () => {
    for (const key of ['basic/b.json', 'basic/a/x.json', 'elsewhere.json']) await put(client, key);
    const got = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'basic/b.json' }));
    expect(await got.Body!.transformToString()).toBe('{"key":"basic/b.json"}');
    expect(await s3.keys('basic/')).toEqual(['basic/a/x.json', 'basic/b.json']);
    expect(await s3.keys()).toContain('elsewhere.json');
  });

  it('serves Content-Type, Cache-Control and the ETag as put, over plain HTTP', async () => {
    const key = 'headers/a b.json';
    const { ETag } = await client.send(
      new PutObjectCommand({
        Bucket: s3.bucket,
        Key: key,
        Body: '{"a":1}',
        ContentType: 'application/json; charset=utf-8',
        CacheControl: 'public, max-age=60, must-revalidate',
      }),
    );
    const reply = await call(s3.objectUrl(key), '');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.headers['cache-control']).toBe('public, max-age=60, must-revalidate');
    expect(reply.headers.etag).toBe(ETag);
    expect(reply.text).toBe('{"a":1}');
  });

  it('answers 403 to a wrong secret, an unknown key id and a Host other than the signed one', async () => {
    const wrongSecret = s3Client(s3.endpoint, { credentials: { ...CREDENTIALS, secretAccessKey: 'wrong-secret' } });
    const unknownKey = s3Client(s3.endpoint, { credentials: { ...CREDENTIALS, accessKeyId: 'AKIAWRONGKEY' } });
    // What a proxy that rewrote Host would send: the same server under another name, after the SDK signed the first.
    const renamed = s3Client(s3.endpoint);
    renamed.middlewareStack.add(
      (next) => async (args) => {
        (args.request as { headers: Record<string, string> }).headers.host = `localhost:${s3.port}`;
        return next(args);
      },
      { step: 'deserialize', priority: 'low' },
    );
    for (const [via, code] of [
      [wrongSecret, 'SignatureDoesNotMatch'],
      [unknownKey, 'InvalidAccessKeyId'],
      [renamed, 'SignatureDoesNotMatch'],
    ] as const) {
      await expect(put(via, 'denied/x.json')).rejects.toMatchObject({ name: code, $metadata: { httpStatusCode: 403 } });
      via.destroy();
    }
    expect(await s3.keys('denied/')).toEqual([]);
  });

  it('stores a streamed body intact only without the default checksum trailer (s3rver keeps aws-chunked framing)', async () => {
    const stream = () => Readable.from([Buffer.from('{"s":1}')]);
    const required = s3Client(s3.endpoint, {
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    onTestFinished(() => required.destroy());
    await put(client, 'checksum/buffer.json', '{"s":1}');
    await put(client, 'checksum/default-stream.json', stream());
    await put(required, 'checksum/required-stream.json', stream());
    expect(await stored('checksum/buffer.json')).toBe('{"s":1}');
    expect(await stored('checksum/default-stream.json')).toMatch(/^7\r\n\{"s":1\}\r\n0\r\nx-amz-checksum-crc32:/);
    expect(await stored('checksum/required-stream.json')).toBe('{"s":1}');
  });

  it('keeps the old object when a PUT dies mid-body, as S3 does (s3rver alone would leave it truncated)', async () => {
    await put(client, 'atomic/pointer.json', '{"version":1}');
    // The SDK takes the first part of the body and asks for more; the publisher dies before it comes, once the store
    // has had the time to touch the object (s3rver alone truncates it at once) or after half a second.
    const killed = new AbortController();
    let reads = 0;
    const dying = new Readable({
      read() {
        if (reads++ > 0) return;
        this.push('{"ver');
        void (async () => {
          const deadline = performance.now() + 500;
          while (performance.now() < deadline && (await stored('atomic/pointer.json')) === '{"version":1}') {
            await new Promise((r) => setTimeout(r, 10));
          }
          killed.abort();
        })();
      },
    });
    await expect(
      client.send(
        new PutObjectCommand({ Bucket: s3.bucket, Key: 'atomic/pointer.json', Body: dying, ContentLength: 13 }),
        { abortSignal: killed.signal },
      ),
    ).rejects.toThrow();
    expect(await stored('atomic/pointer.json')).toBe('{"version":1}');
    await put(client, 'atomic/pointer.json', '{"version":2}');
    expect(await stored('atomic/pointer.json')).toBe('{"version":2}');
  });
});

describe('startFaultProxy', () => {
  it("fails every request 'before' the store at failRate 1: the SDK gets a 5xx, nothing is stored", async () => {
    const { proxy, via } = await proxied({ failRate: 1 }, 2);
    const error = await put(via, 'before/x.json').catch((e: unknown) => e);
    expect(error).toMatchObject({
      $metadata: { httpStatusCode: expect.toSatisfy((s: number) => s === 500 || s === 503) },
    });
    expect(['InternalError', 'SlowDown']).toContain((error as Error).name);
    expect(proxy.stats).toEqual({ total: 2, failed: 2, slowed: 0, stalled: 0, stalledBodies: 0 });
    expect(await s3.keys('before/')).toEqual([]);
  });

  it("lets the store apply a write 'after' and still answers the error; only matching requests get faults", async () => {
    const { proxy, via } = await proxied(
      { failRate: 1, when: 'after', statuses: [503], match: (method) => method === 'PUT' },
      1,
    );
    await expect(put(via, 'after/x.json')).rejects.toMatchObject({
      name: 'SlowDown',
      $metadata: { httpStatusCode: 503 },
    });
    expect(await s3.keys('after/')).toEqual(['after/x.json']);
    const got = await via.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'after/x.json' }));
    expect(await got.Body!.transformToString()).toBe('{"key":"after/x.json"}');
    expect(proxy.stats).toEqual({ total: 2, failed: 1, slowed: 0, stalled: 0, stalledBodies: 0 });
  });

  it('lands all 20 PUTs at failRate 0.3 through the SDK retries (maxAttempts 5), signatures intact', async () => {
    const { proxy, via } = await proxied({ failRate: 0.3, statuses: [500], seed: 42 }, 5);
    // One at a time, so the seeded faults fall on the same attempts in every run; 500 only, as SlowDown's longer backoff
    // (the 'after' test covers it) would take seconds here.
    for (let i = 0; i < 20; i++) await put(via, `retried/${String(i).padStart(2, '0')}.json`);
    expect(await s3.keys('retried/')).toEqual(
      Array.from({ length: 20 }, (_, i) => `retried/${String(i).padStart(2, '0')}.json`),
    );
    expect(await stored('retried/07.json')).toBe('{"key":"retried/07.json"}');
    expect(proxy.stats.failed).toBeGreaterThan(0);
    expect(proxy.stats.total).toBe(20 + proxy.stats.failed);
  });

  it('delays the slowRate share of requests and counts them; setPlan starts the counts afresh', async () => {
    const { proxy, via } = await proxied({ slowRate: 1, slowMs: 5 }, 1);
    for (let i = 0; i < 3; i++) await put(via, `slow/${i}.json`);
    expect(proxy.stats).toEqual({ total: 3, failed: 0, slowed: 3, stalled: 0, stalledBodies: 0 });
    proxy.setPlan({ slowRate: 0.5, slowMs: 5, seed: 3 });
    for (let i = 0; i < 10; i++) await put(via, `slow/${i}.json`);
    expect(proxy.stats.total).toBe(10);
    expect(proxy.stats.slowed).toBeGreaterThan(0);
    expect(proxy.stats.slowed).toBeLessThan(10);
    expect(await s3.keys('slow/')).toHaveLength(10);
  });
});

describe('startS3 with cors', () => {
  it('answers a cross-origin preflight and GET with Access-Control-Allow-Origin only when cors is on', async () => {
    const open = await startS3({ bucket: 'public', cors: true });
    const writer = s3Client(open.endpoint);
    onTestFinished(async () => {
      writer.destroy();
      await open.stop();
    });
    const key = 'wro-1/listings.json';
    await writer.send(
      new PutObjectCommand({ Bucket: open.bucket, Key: key, Body: '{}', ContentType: 'application/json' }),
    );
    await put(client, key);
    const origin = 'https://partner.example';
    const preflight = {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'if-none-match',
      },
    } as const;

    const allowed = await call(open.objectUrl(key), '', preflight);
    expect(allowed.status).toBe(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('*');
    expect(allowed.headers['access-control-allow-methods']).toBe('GET, HEAD');
    const read = await call(open.objectUrl(key), '', { headers: { Origin: origin } });
    expect(read.status).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBe('*');
    expect(read.headers['access-control-expose-headers']).toBe('ETag');

    expect((await call(s3.objectUrl(key), '', preflight)).status).toBe(403);
    const closed = await call(s3.objectUrl(key), '', { headers: { Origin: origin } });
    expect(closed.status).toBe(200);
    expect(closed.headers['access-control-allow-origin']).toBeUndefined();
  });
});
