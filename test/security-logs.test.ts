// A key never appears in a log line or an error body, wherever a client puts it (on a SQLite file and on a node on
// PostgreSQL); and the whole-run check (test/helpers/global-setup.ts) really does find a key in a log.
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../server/domain/keys.ts';
import { revokeKey } from '../server/store/keys.ts';
import { leakedKeys } from './helpers/capture.ts';
import { issueKey } from './helpers/fixture.ts';
import { BACKENDS, useDemoServer } from './helpers/setup.ts';
import { rawGet, rawRequest } from './helpers/raw-http.ts';
import { until } from './helpers/wait.ts';

describe.each(BACKENDS)('on %s', (backend) => {
  const keys: string[] = [];
  const demo = useDemoServer({
    backend,
    prepare: (db) => {
      const valid = issueKey(db, 'wro-1');
      const revoked = issueKey(db, 'ber-1');
      revokeKey(db, revoked.id);
      keys.push(valid.key, revoked.key, issueKey(db, 'zrh-1', { allowed_origins: ['https://partner.example'] }).key);
    },
    app: { authFailureLimit: { rate: 10_000, burst: 10_000 } },
  });

  describe('keys stay out of logs and error bodies', () => {
    it('wherever a client puts a key (header, path, query, other headers), the request log and the answer do not hold it', async () => {
      const bodies: string[] = [];
      for (const key of keys) {
        const requests = [
          rawGet('/external/listings', { 'X-API-Key': key }),
          rawGet('/external/listings', { 'X-API-Key': key, Origin: 'https://evil.example' }),
          rawGet('/external/listings/lst_nope', { 'X-API-Key': key }),
          rawGet(`/external/listings/${key}`),
          rawGet(`/external/listings/${key}`, { 'X-API-Key': key }),
          rawGet(`/${key}`),
          rawGet(`/rent/${key}/${key}`),
          rawGet(`/external/listings?api_key=${key}`),
          rawGet(`/external/listings?sort=${key}`, { 'X-API-Key': keys[0]! }),
          rawGet('/external/listings', {
            Authorization: `Bearer ${key}`,
            Referer: `https://partner.example/?k=${key}`,
          }),
          rawGet('/external/listings', { 'X-API-Key': `${key}x` }),
          rawGet(`/external/listings/${key}`, {}, 'POST'),
          rawGet(`/${'a'.repeat(2100)}${key}`),
        ];
        for (const r of requests) bodies.push((await rawRequest(demo.app.port, r)).body.toString());
      }
      // The log is written in batches (every 50 ms): wait for every request's line rather than for a batch to pass.
      const lineCount = () => demo.app.logs.join('').split('\n').filter(Boolean).length;
      await until(`${keys.length * 13} log lines`, () => lineCount() >= keys.length * 13);
      const logs = demo.app.logs.join('');
      expect(leakedKeys(keys, logs)).toEqual([]);
      expect(leakedKeys(keys, bodies.join('\n'))).toEqual([]);
    });

    it('the log still names the key that was used, by its id', async () => {
      const logs = demo.app.logs
        .join('')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect(logs.some((l) => typeof l.key_id === 'string' && l.key_id.startsWith('key_'))).toBe(true);
    });
  });
});

describe('the leak check itself', () => {
  const key = 'svc_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345';

  it('finds a key in a log, with its prefix, without it, or run into other text', () => {
    expect(leakedKeys([key], `{"path":"/external/listings/${key}"}`)).toEqual([key]);
    expect(leakedKeys([key], `token=${key.slice(9)}&x=1`)).toEqual([key]);
    expect(leakedKeys([key], `xx${key.slice(9)}yy`)).toEqual([key]);
    expect(leakedKeys([key], `{"key_id":"key_3kT9wQ2mZp8vL1xA","hint":"2345"}`)).toEqual([]);
  });

  it('the server redacts anything shaped like a secret from the paths it logs', () => {
    expect(redactSecrets(`/external/listings/${key}`)).toBe('/external/listings/svc_live_[redacted]');
    expect(redactSecrets('/external/listings/lst_0123456789abcdef0123')).toBe(
      '/external/listings/lst_0123456789abcdef0123',
    );
  });
});
