// The API tab's keys table at 1,280 px in Chromium: a revoked key's state and dates stay on one line each (never broken
// at a date's hyphens), so its row is no taller than an active key's row beside it.
import { describe, expect, it } from 'vitest';
import { usePanelInBrowser } from './helpers/panel-browser.ts';

describe('the keys table at 1,280 px in Chromium', () => {
  const run = usePanelInBrowser('chromium', { logIn: true });

  it('keeps a revoked row to one line per value and to the height of an active row', async () => {
    const limits = { allowed_origins: ['https://odra-movers.example'], rate_per_s: 5, burst: 20 };
    await run.store.createKey({ facilityId: 'wro-1', label: 'odra-movers.example', prefix: 'svc', ...limits });
    const gone = await run.store.createKey({ facilityId: 'wro-1', label: 'broker.example', prefix: 'svc', ...limits });
    await run.store.revokeKey(gone.info.id);
    await run.page.setViewport({ width: 1280, height: 900 });
    for (const lang of ['en', 'pl', 'de']) {
      await run.page.setExtraHTTPHeaders({ 'accept-language': lang });
      await run.go('/facilities/wro-1/api', `the API tab at 1,280 px in ${lang}`);
      const rows = await run.page.$$eval('table.keys tbody tr', (trs) =>
        trs.map((tr) => {
          // The lines a cell's text takes: the distinct tops of its text's boxes.
          const lines = (cell: Element) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
          };
          return {
            revoked: tr.classList.contains('inactive'),
            height: tr.getBoundingClientRect().height,
            state: lines(tr.querySelector('[data-key-state]')!),
            created: lines(tr.children[2]!),
          };
        }),
      );
      expect(rows.map((r) => r.revoked)).toEqual([false, true]);
      const [active, revoked] = rows;
      expect({ lang, state: revoked!.state, created: revoked!.created }).toEqual({ lang, state: 1, created: 1 });
      expect(revoked!.height).toBeLessThanOrEqual(active!.height);
    }
    await run.page.setExtraHTTPHeaders({});
  }, 60_000);
});
