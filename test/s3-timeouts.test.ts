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

/** A store that answers every GET with 200 and the first 10 of 100 promised bytes, then nothing more. */
async function stallingBody(): Promise<{ endpoint: string; requests: () => number }> {
  let count = 0;
  server = createServer((req, res) => {
    count++;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write('{"partial"');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => count };
}

describe('s3Target timeouts', () => {
  it('fails a GET whose body stops coming after its headers within the timeout, in one line', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', CREDENTIALS.accessKeyId);
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', CREDENTIALS.secretAccessKey);
    const store = await stallingBody();
    const target = await s3Target({
      bucket: 'listings',
      prefix: 'p',
      endpoint: store.endpoint,
      pathStyle: true,
      env: { S3_REQUEST_TIMEOUT: '0.2' },
    });
    try {
      const started = performance.now();
      const error = await target.get('wro-1/listings.json').catch((e: unknown) => e);
      expect(performance.now() - started).toBeLessThan(20_000);
      expect(error).toBeInstanceOf(ListingsError);
      expect((error as ListingsError).code).toBe('publish_failed');
      expect((error as ListingsError).message).toMatch(
        /^cannot reach http:\/\/127\.0\.0\.1:\d+ \(no answer within 0\.2 s\) for GET s3:\/\/listings\/p\/wro-1\/listings\.json$/,
      );
      expect(store.requests()).toBe(1);
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
