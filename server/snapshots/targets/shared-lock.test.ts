// lockSharedInProcess over a real folder: holders in this process share one lock file, which keeps others out until
// the last of them releases it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/helpers/fixture.ts';
import { folderTarget } from './folder.ts';
import { lockSharedInProcess } from './shared-lock.ts';

let dir: string;
let cleanup: () => void;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(() => cleanup());

describe('lockSharedInProcess', () => {
  it('lets every holder in, keeps the folder locked for any other lock until the last releases', async () => {
    const shared = lockSharedInProcess(folderTarget(dir));
    const [watch, panel] = await Promise.all([shared.lock(), shared.lock()]);
    await expect(folderTarget(dir).lock()).rejects.toMatchObject({ code: 'export_locked' });
    await panel();
    await panel(); // a second call of one release changes nothing
    await expect(folderTarget(dir).lock()).rejects.toMatchObject({ code: 'export_locked' });
    await watch();
    const other = await folderTarget(dir).lock();
    await expect(shared.lock()).rejects.toMatchObject({ code: 'export_locked' });
    await other();
    await (
      await shared.lock()
    )();
  });
});
