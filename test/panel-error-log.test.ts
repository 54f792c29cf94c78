// A panel request that fails unexpectedly: its 500 names a request id, and the log line with its stack carries the same
// id, as the API's do (docs/operations.md); every other answer names its request id too.
import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { createLogger } from '../server/logger.ts';
import { usePanel } from './helpers/panel.ts';

const panel = usePanel();

it('logs a failed page with its request id and stack, and the 500 names that id', async () => {
  const lines: string[] = [];
  panel.handle = panel.over({ logger: createLogger({ quiet: true, write: (l) => lines.push(l) }).logger });
  const { as } = await panel.client.session();
  const ok = await as('GET', '/facilities/wro-1');
  expect(ok.status).toBe(200);
  expect(ok.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  const db = new Database(panel.file);
  db.prepare("UPDATE facilities SET amenities = '{not json' WHERE id = 'wro-1'").run();
  db.close();
  const failed = await as('GET', '/facilities/wro-1');
  expect(failed.status).toBe(500);
  const id = failed.headers['x-request-id']!;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  expect(id).not.toBe(ok.headers['x-request-id']);
  expect(String(failed.body)).toContain(id);
  expect(String(failed.body)).not.toMatch(/\bat \S+:\d+:\d+/);
  const logged = lines.map((l) => JSON.parse(l) as { level: string; request_id?: string; error?: { stack: string } });
  const error = logged.find((l) => l.level === 'error' && l.request_id === id);
  expect(error?.error?.stack).toMatch(/^SyntaxError: /);
  expect(error).toMatchObject({ method: 'GET', path: '/facilities/wro-1' });
});
