import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, lockOutput } from './files.ts';

describe('the export lock', () => {
  const dirs: string[] = [];
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'listings-lock-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('waits for the id of a lock just created (empty yet) rather than taking it for stale', async () => {
    const dir = folder();
    const lock = join(dir, LOCK_FILE);
    writeFileSync(lock, ''); // created, its maker (this process, which runs) about to write its id
    const written = new Promise<void>((done) =>
      setTimeout(() => {
        writeFileSync(lock, `${process.pid}\n`);
        done();
      }, 50),
    );
    await expect(lockOutput(dir)).rejects.toThrow(`is being exported by process ${process.pid}`);
    await written;
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
  });

  it('takes over a lock that stays empty (its maker died before writing its id)', async () => {
    const dir = folder();
    const lock = join(dir, LOCK_FILE);
    writeFileSync(lock, '');
    const unlock = await lockOutput(dir);
    expect(readFileSync(lock, 'utf8')).toBe(`${process.pid}\n`);
    await unlock();
    expect(() => readFileSync(lock)).toThrow(/ENOENT/);
  });

  it('takes over a lock whose process is gone, and refuses one whose process runs', async () => {
    const dir = folder();
    const lock = join(dir, LOCK_FILE);
    writeFileSync(lock, '2147483646\n'); // no such process
    const unlock = await lockOutput(dir);
    await expect(lockOutput(dir)).rejects.toThrow(`is being exported by process ${process.pid}`);
    await unlock();
  });

  it("tells a --watch publisher's lock apart: it is to be stopped, not waited for", async () => {
    const dir = folder();
    const unlock = await lockOutput(dir, { watch: true });
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(`${process.pid} watch\n`);
    await expect(lockOutput(dir)).rejects.toThrow(`held by a --watch publisher (process ${process.pid})`);
    await unlock();
    const again = await lockOutput(dir);
    await expect(lockOutput(dir)).rejects.toThrow(`is being exported by process ${process.pid}`);
    await again();
  });
});
