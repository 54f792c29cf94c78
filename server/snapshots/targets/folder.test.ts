// folderTarget over a real folder: what a killed writer left is cleared by the next lock holder, and nothing a reader
// may hold is touched; a run leaves no temp files, and a run that wrote nothing leaves no folder it made.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/fixture.ts';
import { LOCK_FILE } from '../files.ts';
import { folderTarget } from './folder.ts';
import { TEMP_DIR } from './folder-temp.ts';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

const put = (rel: string, text = '{}\n') => {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  writeFileSync(join(dir, rel), text);
};
/** A temp file as a writer killed before its rename leaves it. */
const tempOf = (key: string) => put(`${TEMP_DIR}/${encodeURIComponent(key)}`, 'half');
const META = { contentType: 'application/json', cacheControl: 'no-store' };

describe('folderTarget', () => {
  it("clears a killed writer's temp files and the empty version folders they were for, and nothing else", async () => {
    put(LOCK_FILE, '999999999\n'); // its process is gone
    put('wro-1/listings.json', '{"version":5}\n');
    put('wro-1/v5/listings.json', '{"version":5}\n');
    put('wro-1/v5/listings.json.sig', 'sig');
    // v6: one file renamed into place before the kill (a version cut short: a file, so it stays); v7: none.
    put('wro-1/v6/listings.json', '{"version":6}\n');
    tempOf('wro-1/v6/listings.json.sig');
    mkdirSync(join(dir, 'wro-1/v7'));
    tempOf('wro-1/v7/listings.json');
    tempOf('wro-1/v7/listings.json.sig');
    tempOf('wro-1/listings.json');
    // Named by the index: left alone even when empty (no reader may be pointed at a folder that goes away).
    put('index.json', '{"facilities":[{"id":"ber-1","version":3}]}\n');
    mkdirSync(join(dir, 'ber-1/v3'), { recursive: true });
    tempOf('ber-1/v3/listings.json');

    const release = await folderTarget(dir).lock();
    expect(readdirSync(join(dir, TEMP_DIR))).toEqual([]);
    expect(readdirSync(join(dir, 'wro-1')).sort()).toEqual(['listings.json', 'v5', 'v6']);
    expect(readdirSync(join(dir, 'wro-1/v5')).sort()).toEqual(['listings.json', 'listings.json.sig']);
    expect(readdirSync(join(dir, 'wro-1/v6'))).toEqual(['listings.json']);
    expect(readFileSync(join(dir, 'wro-1/listings.json'), 'utf8')).toBe('{"version":5}\n');
    expect(existsSync(join(dir, 'ber-1/v3'))).toBe(true);
    await release();
    expect(readdirSync(dir).sort()).toEqual(['ber-1', 'index.json', 'wro-1']);
  });

  it("clears an older release's temp files beside their objects, and only names it wrote", async () => {
    const kid = 'GQGcott7G1OMiBHyb1N-3g';
    put('wro-1/listings.json', '{"version":5}\n');
    put('wro-1/v5/listings.json', '{"version":5}\n');
    put('wro-1/v5/listings.json.sig', 'sig');
    // Beside a whole version (its number written again later), in a version cut short, and for the pointer.
    put('wro-1/v5/.listings.json.tmp', 'half');
    put('wro-1/v6/listings.json', '{"version":6}\n');
    put('wro-1/v6/.listings.json.sig.tmp', 'half');
    put('wro-1/v7/.listings.json.tmp', 'half');
    put('wro-1/v7/.listings.json.sig.tmp', 'half');
    put('wro-1/.listings.json.tmp', 'half');
    put('.index.json.sig.tmp', 'half');
    put('.keys.json.tmp', 'half');
    put(`keys/${kid}.pem`, 'pem');
    put(`keys/.${kid}.pem.tmp`, 'half');
    put('changes/latest.json', '{}\n');
    put('changes/.latest.json.tmp', 'half');
    put('changes/.3.json.sig.tmp', 'half');
    // Named by the index: it stays, empty or not.
    put('index.json', '{"facilities":[{"id":"ber-1","version":3}]}\n');
    put('ber-1/v3/.listings.json.tmp', 'half');
    // Not ours: other names, a folder by a temp's name, a folder outside the layout.
    put('wro-1/v5/.notes.tmp', 'keep');
    put('wro-1/v5/listings.json.tmp', 'keep');
    mkdirSync(join(dir, 'wro-1/v5/.listings.json.sig.tmp'));
    put('Drafts/v1/.listings.json.tmp', 'keep');
    put('.other.tmp', 'keep');

    const release = await folderTarget(dir).lock();
    await release();
    const files = readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() || readdirSync(join(e.parentPath, e.name)).length === 0)
      .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
      .sort();
    expect(files).toEqual(
      [
        '.other.tmp',
        'Drafts/v1/.listings.json.tmp',
        'ber-1/v3',
        'changes/latest.json',
        `keys/${kid}.pem`,
        'index.json',
        'wro-1/listings.json',
        'wro-1/v5/.listings.json.sig.tmp',
        'wro-1/v5/.notes.tmp',
        'wro-1/v5/listings.json',
        'wro-1/v5/listings.json.sig',
        'wro-1/v5/listings.json.tmp',
        'wro-1/v6/listings.json',
      ].sort(),
    );
  });

  it('writes through the hidden temp folder, removes a temp whose rename failed, and leaves neither behind', async () => {
    const target = folderTarget(dir);
    const release = await target.lock();
    await target.put('wro-1/v1/listings.json', Buffer.from('{}\n'), META);
    put('wro-1/listings.json/blocker'); // a folder where the pointer goes: its rename fails
    await expect(target.put('wro-1/listings.json', Buffer.from('{}\n'), META)).rejects.toThrow();
    expect(readdirSync(join(dir, TEMP_DIR))).toEqual([]);
    await release();
    expect(readdirSync(dir).sort()).toEqual(['wro-1']);
    expect(readFileSync(join(dir, 'wro-1/v1/listings.json'), 'utf8')).toBe('{}\n');
  });

  it('removes, on release, the folders its lock made when nothing was written in them', async () => {
    const release = await folderTarget(join(dir, 'a', 'b')).lock();
    await release();
    expect(readdirSync(dir)).toEqual([]);
  });
});
