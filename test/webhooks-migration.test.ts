// A database from before events that disabled their endpoint were kept waiting: migrated, the event a 410 or the last
// retry left `failed` waits again with the others for `webhooks enable`, on SQLite and PostgreSQL alike; one whose
// endpoint was enabled since stays in the log as it ended.
import { describe, expect, it } from 'vitest';
import { openStore } from '../server/store/store.ts';
import { tempDir } from './helpers/fixture.ts';
import { postgresAt, sqliteAt } from './helpers/old-schema.ts';
import { usePostgres } from './helpers/postgres.ts';

const postgres = usePostgres();
const BEFORE = 13;

const ROWS = `
  INSERT INTO facilities (id, name, currency, imported_at) VALUES ('f', 'F', 'PLN', '2026-01-01T00:00:00Z');
  INSERT INTO api_keys (id, facility_id, digest, hint, created_at, ref)
    VALUES ('key_AbCdEf0123456789', 'f', 'd', 'h', '2026-01-01T00:00:00Z', 'partner');
  INSERT INTO webhook_endpoints (id, key_id, facility_id, url, events, secret, created_at, disabled_at, disabled_reason)
    VALUES ('we_gone', 'key_AbCdEf0123456789', 'f', 'https://a.example/', '[]', 's', '2026-01-01T00:00:00Z',
            '2026-01-02T00:00:00Z', 'gone'),
           ('we_back', 'key_AbCdEf0123456789', 'f', 'https://b.example/', '[]', 's', '2026-01-01T00:00:00Z', NULL, NULL);
  INSERT INTO webhook_outbox (id, endpoint_id, subject, type, event, body, status, attempts, next_at, last_code, created_at)
    VALUES ('msg_1', 'we_gone', 'l1', 'listing.removed', '{}', '{}', 'failed', 1, 0, 410, 1),
           ('msg_2', 'we_gone', 'l2', 'listing.updated', '{}', NULL, 'pending', 0, 0, NULL, 2),
           ('msg_3', 'we_back', 'l1', 'listing.removed', '{}', '{}', 'failed', 10, 0, 500, 3);
`;

const statuses = async (location: string) => {
  const store = await openStore(location);
  try {
    const log = await store.webhooks.deliveries(undefined, 10);
    return Object.fromEntries(log.map((d) => [d.message_id, d.status]));
  } finally {
    await store.close();
  }
};

const EXPECTED = { msg_1: 'pending', msg_2: 'pending', msg_3: 'failed' };

describe('migration 14', () => {
  it('on SQLite', async () => {
    const { dir, cleanup } = tempDir();
    try {
      expect(await statuses(sqliteAt(dir, BEFORE, ROWS))).toEqual(EXPECTED);
    } finally {
      cleanup();
    }
  });

  it('on PostgreSQL', async () => {
    expect(await statuses(await postgresAt(postgres.server(), BEFORE, ROWS))).toEqual(EXPECTED);
  });
});
