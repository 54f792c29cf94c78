// A revoked key stays as it was: an edit is refused on both stores (the panel's form and `keys update` alike) and the
// panel's no-script revoke page says it is revoked instead of asking again; nothing refused is audited.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoImport, tempDir, cliInProcess } from './helpers/fixture.ts';
import { usePanel } from './helpers/panel.ts';
import { usePostgres } from './helpers/postgres.ts';
import { openStore, type Store } from '../server/store/store.ts';

const postgres = usePostgres();
const panel = usePanel();

async function editAfterRevoke(store: Store) {
  await store.applyImport(demoImport());
  const { info } = await store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'a' });
  await store.revokeKey(info.id);
  const refused = await store.updateKey(info.id, { label: 'after revoke' }).then(
    () => 'accepted',
    (err: { code: string }) => err.code,
  );
  return {
    refused,
    label: (await store.listKeys('wro-1'))[0]!.label,
    updates: (await store.listAudit({ action: 'key.update' })).length,
  };
}

describe('a revoked key', () => {
  it('is not changed by an edit, on SQLite and PostgreSQL alike, and no update is audited', async () => {
    const { dir, cleanup } = tempDir();
    const sqlite = await openStore(join(dir, 'k.db'));
    const pg = await openStore(await postgres.server().newDatabase());
    try {
      const [a, b] = [await editAfterRevoke(sqlite), await editAfterRevoke(pg)];
      expect(b).toEqual(a);
      expect(a).toEqual({ refused: 'key_revoked', label: 'a', updates: 0 });
    } finally {
      await sqlite.close();
      await pg.close();
      cleanup();
    }
  });

  it('is refused by keys update (exit 1) and by the panel: its edit form 400, its revoke page not asking again', async () => {
    const { info } = await panel.store.createKey({ facilityId: 'wro-1', prefix: 'svc', label: 'a' });
    await panel.store.revokeKey(info.id);
    const audit = await panel.store.listAudit();
    const cli = await cliInProcess(panel.file, ['keys', 'update', info.id, '--label', 'b']);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain(info.id);
    const s = await panel.client.session();
    const edit = await s.as('POST', `/keys/${info.id}`, { label: 'b', rate: '5/s' });
    expect(edit.status).toBe(400);
    expect(String(edit.body)).toContain('role="alert"');
    const confirm = await s.as('GET', `/keys/${info.id}/revoke`);
    expect(confirm.status).toBe(409);
    expect(String(confirm.body)).not.toContain(`action="/keys/${info.id}/revoke"`);
    expect(String(confirm.body)).toContain('role="alert"');
    expect((await panel.store.listKeys('wro-1'))[0]).toMatchObject({ label: 'a', rate_per_s: null });
    expect((await panel.store.listAudit()).filter((a) => a.action !== 'login')).toEqual(
      audit.filter((a) => a.action !== 'login'),
    );
  });
});
