// What a failed request to object storage says: the attempts it took, and why fewer than configured.
import { describe, expect, it } from 'vitest';
import { describeS3Error } from './s3-errors.ts';

const place = { bucket: 'listings', prefix: 'v1', endpoint: 'http://127.0.0.1:9000', maxAttempts: 5 };
const refused = (attempts: number) => ({ name: 'Error', code: 'ECONNREFUSED', $metadata: { attempts } });

describe('describeS3Error', () => {
  it('names the attempts a request took when they are all the client makes', () => {
    expect(describeS3Error(refused(5), 'PUT', 's3://listings/v1/keys.json', place)).toBe(
      'cannot reach http://127.0.0.1:9000 (ECONNREFUSED) for PUT s3://listings/v1/keys.json after 5 attempts',
    );
  });

  it('says that the shared retries ran out when a request took fewer attempts than configured', () => {
    expect(describeS3Error(refused(3), 'PUT', 's3://listings/v1/keys.json', place)).toMatch(
      /after 3 attempts \(of 5: the retries this publish's requests share ran out\)$/,
    );
    const busy = { name: 'ServiceUnavailable', $metadata: { httpStatusCode: 503, attempts: 2 } };
    expect(describeS3Error(busy, 'GET', 's3://listings/v1/index.json', place)).toMatch(/after 2 attempts \(of 5: /);
  });
});
