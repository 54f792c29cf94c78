// `npm run demo:compare` ranks by what a new tenant pays when it renders, not when the snapshot was made: a promotion
// that ended or started since generated_at counts as the widget counts it.
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseImport } from '../server/domain/import.ts';
import { signingKeyOf } from '../server/snapshots/format/keygen.ts';
import { publishSnapshots } from '../server/snapshots/publish/publish.ts';
import { folderTarget } from '../server/snapshots/targets/folder.ts';
import { demoDb, REPO, tempDir } from './helpers/fixture.ts';
import { promotion, richJson } from './helpers/rental-info.ts';

const { dir, cleanup } = tempDir();
afterAll(cleanup);

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

function compare(env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'demo/comparison-site.ts'], {
      cwd: REPO,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('demo:compare', { timeout: 60_000 }, () => {
  it('prices each unit when it renders: a promotion that ended since generated_at no longer counts, one that started does', async () => {
    const now = Date.now();
    const data = richJson([promotion({ code: 'ENDED', value: 90, starts_at: null, ends_at: iso(now - 3600_000) })]);
    const wro = data.facilities.find((f) => f.id === 'wro-1');
    wro.listings[1].promotions = [promotion({ code: 'STARTED', value: 90, starts_at: iso(now - 3600_000) })];
    const { db } = demoDb(dir, parseImport(JSON.stringify(data), 'promos.json'));
    const out = join(dir, 'published');
    await publishSnapshots(db, {
      target: folderTarget(out),
      key: signingKeyOf(generateKeyPairSync('ed25519').privateKey),
      publicUrl: 'https://l.example',
      ttlSeconds: 7 * 86_400,
      now: new Date(now - 2 * 3600_000), // made before the one ended and the other started
    });
    db.close();

    const r = await compare({ LISTINGS_SNAPSHOTS: out, LISTINGS_MIRROR: join(dir, 'mirror') });
    expect(r.status, r.stderr).toBe(0);
    const row = (code: string) => r.stdout.split('\n').find((line) => line.includes(`${code}  `))!;
    const [ended, started] = [wro.listings[0].code, wro.listings[1].code];
    expect(row(ended)).toBeDefined();
    expect(row(ended)).not.toContain(' *');
    expect(row(started)).toContain(' *');
  });
});
