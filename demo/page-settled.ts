// Waits until a page is ready to photograph: no request in flight, every photo decoded (the widget's shadow roots too).
import type { HTTPRequest, Page } from 'puppeteer-core';

export interface Watched {
  /** The console errors and uncaught exceptions since the last call. */
  takeErrors(): string[];
  /** Resolves once no request of the page has been in flight for idleMs; rejects after timeoutMs. */
  idle(idleMs: number, timeoutMs: number): Promise<void>;
}

/**
 * Watches a page from now on: its errors and its requests in flight. A page answered with an error status on purpose (a form's 422
 * listing its problems) logs its own load: that one is not an error here.
 */
export function watchPage(page: Page): Watched {
  let errors: string[] = [];
  const inFlight = new Set<HTTPRequest>();
  let lastChange = Date.now();
  const change = () => (lastChange = Date.now());
  // The browser's own fetch of the favicon may never report its end: it is no part of what is photographed.
  page.on('request', (r) => void (!/\/favicon\.\w+$/.test(new URL(r.url()).pathname) && (inFlight.add(r), change())));
  page.on('requestfinished', (r) => (inFlight.delete(r), change()));
  page.on('requestfailed', (r) => (inFlight.delete(r), change()));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (m.text().startsWith('Failed to load resource') && m.location().url === page.url()) return;
    errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e instanceof Error ? e.message : String(e)));
  return {
    takeErrors() {
      const out = errors;
      errors = [];
      return out;
    },
    async idle(idleMs, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const quietFor = Date.now() - lastChange;
        if (inFlight.size === 0 && quietFor >= idleMs) return;
        if (Date.now() > deadline)
          throw new Error(`${page.url()}: requests still in flight: ${[...inFlight].map((r) => r.url()).join(' ')}`);
        await new Promise<void>((resolve) => setTimeout(resolve, inFlight.size === 0 ? idleMs - quietFor : 50));
      }
    },
  };
}

export async function settled(page: Page, watched: Watched): Promise<void> {
  await watched.idle(500, 15_000);
  // Every photo decoded, in the page and in the widget's shadow root, so no card is caught half-painted; then the
  // sources of those that failed (an image that failed is complete too).
  const done = await page.waitForFunction(
    () => {
      const roots: ParentNode[] = [
        document,
        ...[...document.querySelectorAll('storage-listings')].flatMap((w) => (w.shadowRoot ? [w.shadowRoot] : [])),
      ];
      const images = roots.flatMap((r) => [...r.querySelectorAll('img')]);
      if (!images.every((img) => img.complete)) return false;
      return images.filter((img) => img.naturalWidth === 0).map((img) => img.src);
    },
    { timeout: 15_000 },
  );
  const broken = (await done.jsonValue()) as string[];
  if (broken.length > 0) throw new Error(`${page.url()}: images that did not load: ${broken.join(' ')}`);
  const errors = watched.takeErrors();
  if (errors.length > 0) throw new Error(`${page.url()}: console errors: ${errors.join(' | ')}`);
}
