// SIGKILL in the middle of a large import (2,000 facilities x 50 listings, one transaction): the database passes
// PRAGMA integrity_check, holds exactly the data it held before, and takes the next import as usual.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb, type Db } from '../server/store/db.ts';
import { bigImport } from './helpers/data.ts';
import { BIN, cliAsync, demoDbForAll, demoJson, issueKey, REPO } from './helpers/fixture.ts';

let dir: string;
let file: string;

demoDbForAll((t) => {
  ({ dir, file } = t);
  issueKey(t.db, 'wro-1');
});

/** A digest of every row of every table, in rowid order: equal digests, equal data. */
function digestOf(db: Db): { digest: string; rows: number } {
  const hash = createHash('sha256');
  let rows = 0;
  const tables = db
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all();
  for (const { name } of tables) {
    hash.update(`\0table ${name}\0`);
    for (const row of db.prepare(`SELECT * FROM "${name}" ORDER BY rowid`).raw().iterate()) {
      hash.update(JSON.stringify(row));
      rows++;
    }
  }
  return { digest: hash.digest('hex'), rows };
}

function snapshotOf(path: string) {
  const db = openDb(path);
  try {
    return {
      ...digestOf(db),
      integrity: db.pragma('integrity_check', { simple: true }),
      version: db.pragma('user_version', { simple: true }),
    };
  } finally {
    db.close();
  }
}

describe('SIGKILL during a large import', () => {
  it('leaves the database intact: integrity_check ok, the same rows as before, usable afterwards', async () => {
    const before = snapshotOf(file);
    expect(before.integrity).toBe('ok');
    expect(before.rows).toBeGreaterThan(20);
    const big = join(dir, 'big.json');
    writeFileSync(big, JSON.stringify(bigImport('big', 2000, 50)));

    const wal = `${file}-wal`;
    const child = spawn(process.execPath, [BIN, 'import', big], {
      cwd: REPO,
      env: { ...process.env, LISTINGS_DB: file },
      stdio: 'ignore',
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let finished = false;
    void exited.then(() => (finished = true));
    // The import validates the whole file first, then writes in one transaction. Its first pages reach the -wal file
    // (SQLite spills its cache) well before it commits: that is the middle of the transaction.
    let walBytes = 0;
    while (!finished) {
      walBytes = existsSync(wal) ? statSync(wal).size : 0;
      if (walBytes >= 64 * 1024) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    child.kill('SIGKILL');
    const exit = await exited;
    expect(exit, 'the import finished before it could be killed').toEqual({ code: null, signal: 'SIGKILL' });
    expect(walBytes).toBeGreaterThanOrEqual(64 * 1024);

    const after = snapshotOf(file);
    expect(after.integrity).toBe('ok');
    expect(after.version).toBe(before.version);
    expect(after.rows).toBe(before.rows);
    expect(after.digest).toBe(before.digest);

    // Still an ordinary database: the next import goes through and shows.
    const again = await cliAsync(['import', '-', '--json'], {
      env: { LISTINGS_DB: file },
      input: JSON.stringify(demoJson()),
    });
    expect(again.status, again.stderr).toBe(0);
    const list = await cliAsync(['facilities', 'list', '--json'], { env: { LISTINGS_DB: file } });
    expect(JSON.parse(list.stdout).map((f: { id: string }) => f.id)).toEqual(
      demoJson()
        .facilities.map((f) => f.id)
        .sort(),
    );
    if (process.env.LISTINGS_TEST_FIGURES)
      console.error(`import kill: killed with ${walBytes} bytes in the -wal; ${after.rows} rows unchanged`);
  }, 120_000);
});
