// The demo operator across starts: created once as an owner, reused while its file's password logs it in, given a new
// password when the file is gone or the password was changed in the panel; the file readable by its owner only.
import { readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../server/domain/passwords.ts';
import { openStore, type Store } from '../server/store/store.ts';
import { tempDir } from '../test/helpers/fixture.ts';
import { DEMO_OPERATOR_EMAIL, demoPanelPort, ensureDemoOperator, type DemoOperatorFile } from './demo-panel.ts';

describe('the demo operator', () => {
  let dir: string;
  let cleanup: () => void;
  let store: Store;
  let file: string;
  const URL = 'http://127.0.0.1:8788';

  beforeEach(async () => {
    ({ dir, cleanup } = tempDir());
    store = await openStore(join(dir, 'demo.db'));
    file = join(dir, 'demo-operator.json');
  });
  afterEach(async () => {
    await store.close();
    cleanup();
  });

  const stored = async () => (await store.operator('email', DEMO_OPERATOR_EMAIL))!;
  const onDisk = () => JSON.parse(readFileSync(file, 'utf8')) as DemoOperatorFile;

  it('is created as an owner on the first start, its password in an owner-only file', async () => {
    const first = await ensureDemoOperator(store, file, URL);
    expect(first.outcome).toBe('created');
    expect(onDisk()).toEqual({ email: DEMO_OPERATOR_EMAIL, password: first.login.password, panel_url: URL });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const row = await stored();
    expect(row.role).toBe('owner');
    expect(await verifyPassword(first.login.password, row.password_hash)).toBe(true);
  });

  it('keeps its password on the next start', async () => {
    const first = await ensureDemoOperator(store, file, URL);
    const hash = (await stored()).password_hash;
    const second = await ensureDemoOperator(store, file, 'http://127.0.0.1:9001');
    expect(second).toMatchObject({ outcome: 'reused', login: { password: first.login.password } });
    expect((await stored()).password_hash).toBe(hash);
    expect(onDisk().panel_url).toBe('http://127.0.0.1:9001');
  });

  it('gets a new password, written to the file, when the file is gone', async () => {
    const first = await ensureDemoOperator(store, file, URL);
    rmSync(file);
    const second = await ensureDemoOperator(store, file, URL);
    expect(second.outcome).toBe('reset');
    expect(second.login.password).not.toBe(first.login.password);
    expect(onDisk().password).toBe(second.login.password);
    expect(await verifyPassword(second.login.password, (await stored()).password_hash)).toBe(true);
    expect(await store.listOperators()).toHaveLength(1);
  });

  it('gets a new password when the one in the file no longer logs in (changed in the panel)', async () => {
    const first = await ensureDemoOperator(store, file, URL);
    await store.setOperatorPassword(DEMO_OPERATOR_EMAIL, await hashPassword('changed in the panel, long enough'));
    const second = await ensureDemoOperator(store, file, URL);
    expect(second.outcome).toBe('reset');
    expect(second.login.password).not.toBe(first.login.password);
    expect(await verifyPassword(second.login.password, (await stored()).password_hash)).toBe(true);
  });

  it('is an owner beside accounts that existed before it', async () => {
    await store.addOperator('ops@example.com', await hashPassword('correct horse battery staple'));
    await ensureDemoOperator(store, file, URL);
    expect((await stored()).role).toBe('owner');
  });
});

describe('the demo panel port', () => {
  it('is PANEL_PORT when given, else the one after the API port, else any free one', () => {
    expect(demoPanelPort(8787, '')).toBe(8788);
    expect(demoPanelPort(9000, '')).toBe(9001);
    expect(demoPanelPort(9000, 9100)).toBe(9100);
    expect(demoPanelPort(0, '')).toBe(0);
  });
});
