// The panel while another process holds the SQLite file's write lock (a long import by the CLI): a change answers 503
// with Retry-After and the CLI's own words for it, on every route (a key, an import), a page still reads (its session
// touch skipped rather than waited for), and everything works again once the lock is let go.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { busyMessage } from '../server/store/busy.ts';
import { demoJson } from './helpers/fixture.ts';
import { usePanel } from './helpers/panel.ts';

const panel = usePanel();

/** A multipart import of the demo data, as the Import page sends it. */
function importForm(csrf: string) {
  const boundary = 'b0undary';
  const part = (head: string, body: string) =>
    `--${boundary}\r\ncontent-disposition: form-data; ${head}\r\n\r\n${body}\r\n`;
  const body = `${part('name="csrf"', csrf)}${part('name="file"; filename="data.json"', JSON.stringify(demoJson()))}--${boundary}--\r\n`;
  return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.from(body) };
}

describe('the SQLite write lock held by another process', () => {
  it('answers a change 503 with Retry-After and the CLI wording, lets pages read, and recovers', async () => {
    const s = await panel.client.session();
    const other = new Database(panel.file);
    try {
      // The session is due for its touch, which cannot be written while the lock is held.
      other.prepare('UPDATE operator_sessions SET seen_at = ?').run(new Date(Date.now() - 5 * 60_000).toISOString());
      other.exec('BEGIN IMMEDIATE');
      other.prepare("UPDATE facilities SET name = name WHERE id = 'wro-1'").run();

      const started = Date.now();
      const page = await s.as('GET', '/facilities/wro-1/api');
      expect(page.status).toBe(200);
      // Not the 5 s busy timeout: the touch is skipped at once.
      expect(Date.now() - started).toBeLessThan(4000);

      const made = await s.as('POST', '/facilities/wro-1/keys', { label: 'while locked' });
      const upload = importForm(s.csrf);
      const imported = await panel.client.request('POST', '/import', {
        headers: { cookie: s.cookie, 'content-type': upload.type },
        body: upload.body,
      });
      for (const answer of [made, imported]) {
        expect(answer.status).toBe(503);
        expect(answer.headers['retry-after']).toBe('5');
        expect(String(answer.body)).toContain(busyMessage('The database'));
        expect(String(answer.body)).not.toContain(panel.file);
      }
      other.exec('COMMIT');
    } finally {
      if (other.inTransaction) other.exec('ROLLBACK');
      other.close();
    }
    expect((await s.as('POST', '/facilities/wro-1/keys', { label: 'after' })).status).toBe(303);
    expect((await panel.store.listKeys('wro-1')).map((k) => k.label)).toEqual(['after']);
  });
});
