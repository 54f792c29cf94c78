// The S3 target's timeouts against a store that stops mid-answer, and S3_REQUEST_TIMEOUT refused when it is no duration.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ListingsError } from '../server/errors.ts';
import { s3Target } from '../server/snapshots/targets/s3.ts';
import { CREDENTIALS } from './helpers/s3-server.ts';

let server: Server | undefined;

afterEach(async () => {
  vi.unstubAllEnvs();
  if (!server) return;
  const closed = new Promise((resolve) => server!.close(resolve));
  server.closeAllConnections();
  await closed;
  server = undefined;
});

/**
 * A store whose first `stalls` answers (any method) send 200 and the first 10 of 100 promised bytes, then nothing more;
 * later ones send the whole body.
 */
async function stallingBody(stalls = Number.POSITIVE_INFINITY): Promise<{ endpoint: string; requests: () => number }> {
  let count = 0;
  server = createServer((req, res) => {
    count++;
    req.resume();
    const body = `{"object":"${'x'.repeat(87)}"}`; // 100 bytes
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
    if (count <= stalls) res.write(body.slice(0, 10));
    else res.end(body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => count };
}

async function targetOn(endpoint: string, maxAttempts?: number) {
  vi.stubEnv('AWS_ACCESS_KEY_ID', CREDENTIALS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', CREDENTIALS.secretAccessKey);
  return s3Target({
    bucket: 'listings',
    prefix: 'p',
    endpoint,
    pathStyle: true,
    maxAttempts,
    env: { S3_REQUEST_TIMEOUT: '0.2' },
  });
}

describe('s3Target timeouts', () => {
  it('retries a GET whose body stops coming after its headers, as a stalled request is retried', async () => {
    const store = await stallingBody(1);
    const target = await targetOn(store.endpoint);
    try {
      const bytes = await target.get('wro-1/listings.json');
      expect(bytes?.length).toBe(100);
      expect(store.requests()).toBe(2);
    } finally {
      await target.close();
    }
  });

  it('retries a PUT whose answer stops coming after its headers', async () => {
    const store = await stallingBody(1);
    const target = await targetOn(store.endpoint);
    try {
      await target.put('wro-1/listings.json', Buffer.from('{}'), { contentType: 'application/json', cacheControl: '' });
      expect(store.requests()).toBe(2);
    } finally {
      await target.close();
    }
  });

  it('fails a GET whose body stalls on every attempt, each within the timeout, in one line', async () => {
    const store = await stallingBody();
    const target = await targetOn(store.endpoint, 3);
    try {
      const started = performance.now();
      const error = await target.get('wro-1/listings.json').catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(error).toBeInstanceOf(ListingsError);
      expect((error as ListingsError).code).toBe('publish_failed');
      expect((error as ListingsError).message).toMatch(
        /^cannot reach http:\/\/127\.0\.0\.1:\d+ \(no answer within 0\.2 s\) for GET s3:\/\/listings\/p\/wro-1\/listings\.json after 3 attempts$/,
      );
      expect(store.requests()).toBe(3);
    } finally {
      await target.close();
    }
  });

  it('refuses an S3_REQUEST_TIMEOUT that is not a number of seconds as a usage error', async () => {
    for (const value of ['abc', '0', '-1', '30s', '3601']) {
      const error = await s3Target({ bucket: 'listings', prefix: '', env: { S3_REQUEST_TIMEOUT: value } }).catch(
        (e: unknown) => e,
      );
      expect(error, value).toBeInstanceOf(ListingsError);
      expect((error as ListingsError).code, value).toBe('invalid_config');
    }
  });
});
