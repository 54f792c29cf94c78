// Lighthouse on /docs in headless Chromium: accessibility at least 95 and performance at least 60.
import lighthouse from 'lighthouse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChrome } from './helpers/devtools-chrome.ts';
import { startKeyedServer } from './helpers/fixture.ts';

describe('Lighthouse on /docs', () => {
  let server: Awaited<ReturnType<typeof startKeyedServer>>;
  let chrome: Awaited<ReturnType<typeof launchChrome>>;
  beforeAll(async () => {
    server = await startKeyedServer('wro-1');
    chrome = await launchChrome();
  });
  afterAll(async () => {
    await chrome?.close();
    await server?.close();
  });

  it('scores at least 95 for accessibility and 60 for performance', async () => {
    // Lighthouse's default: a mobile profile with simulated throttling (Lantern), which models a slow 4G network and
    // a 4x slower CPU from the trace instead of slowing this machine down, so a busy 2-core machine moves it little.
    const result = await lighthouse(`${server.url}/docs`, {
      port: chrome.port,
      onlyCategories: ['accessibility', 'performance'],
      logLevel: 'error',
      output: 'json',
    });
    const categories = result!.lhr.categories;
    const scores = { accessibility: categories.accessibility!.score, performance: categories.performance!.score };
    const failed = Object.values(result!.lhr.audits)
      .filter((a) => a.scoreDisplayMode === 'binary' && a.score === 0)
      .map((a) => a.id);
    expect({ ...scores, failed }).toEqual({
      accessibility: expect.toSatisfy((s: number) => s >= 0.95),
      // Redoc parses 1.1 MB of script and renders the whole document: 1-3 s of blocking time at Lighthouse's 4x slower
      // CPU (scores 0.71-0.77 here), though the page's own header, form and samples paint in about a second.
      performance: expect.toSatisfy((s: number) => s >= 0.6),
      failed: expect.any(Array),
    });
    if (process.env.LIGHTHOUSE_REPORT) process.stdout.write(`lighthouse /docs: ${JSON.stringify(scores)}\n`);
  }, 120_000);
});
