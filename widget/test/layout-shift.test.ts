// The element takes its final size before its data arrives: an article's text below it never moves. Every engine checks
// the height before and after the data; Chromium also sums its layout-shift entries (the page's CLS) against the goals.
import { ok } from './assert.ts';
import { cards, describe, it, openPage, root, token, waitFor } from './helpers.ts';

const WIDTHS = [360, 768, 1280];
/**
 * The panel's snippet (live or snapshot, with and without show-facility; live for a facility with nothing for the header,
 * and with available-only when every unit is taken), and the README's bare two tags: as written, and with a partner's
 * limit="1" or show-facility added (the list, shorter or under a header, moves the text below once, when it comes).
 */
const GOALS: Record<string, number> = {
  live: 0.01,
  'live-facility': 0.01,
  snap: 0.01,
  'snap-facility': 0.01,
  'live-facility-none': 0.01,
  'live-facility-empty': 0.01,
  bare: 0.1,
  'bare-limit': 0.1,
  'bare-facility': 0.1,
};

interface Shift extends PerformanceEntry {
  value: number;
  hadRecentInput: boolean;
}

/**
 * The sums of the frame's layout shifts not caused by input (stricter than CLS's largest session window): on the whole
 * page, and from `since` on (once the loading state shows: what the widget itself moves). takeRecords() hands over the
 * buffered entries at once; an observer's callback comes later, at the browser's leisure.
 */
function layoutShift(frame: HTMLIFrameElement, since: number): { page: number; widget: number } {
  const w = frame.contentWindow as Window & typeof globalThis;
  const observer = new w.PerformanceObserver(() => {});
  observer.observe({ type: 'layout-shift', buffered: true });
  const shifts = (observer.takeRecords() as Shift[]).filter((s) => !s.hadRecentInput);
  observer.disconnect();
  const sum = (list: Shift[]) => list.reduce((total, s) => total + s.value, 0);
  return { page: sum(shifts), widget: sum(shifts.filter((s) => s.startTime > since)) };
}

const nextFrames = (w: Window) =>
  new Promise<void>((resolve) => w.requestAnimationFrame(() => w.requestAnimationFrame(() => resolve())));

/** Where the text below the element starts, before the module has defined it (it comes 400 ms late). */
async function textBelowBefore(frame: HTMLIFrameElement, variant: string): Promise<number> {
  const below = await waitFor(() => frame.contentDocument?.querySelector('h2'), `${variant}: the text below`);
  if (frame.contentWindow?.customElements.get('storage-listings'))
    throw new Error(`${variant}: the module ran before the page was measured`);
  return below.getBoundingClientRect().top;
}

/**
 * Opens the article at `width` and answers where the text below starts before the module runs and while the element
 * loads, the widget's height while loading and once its cards show, and the CLS.
 */
async function measure(variant: string, width: number) {
  const frame = openPage(`/host/article.html?t=late${token()}&w=${variant}`, { width, height: 700 });
  Object.assign(frame.style, { position: 'fixed', top: '0', left: '0', border: '0' });
  const widget = () => frame.contentDocument?.querySelector('storage-listings') as HTMLElement | null | undefined;
  const before = await textBelowBefore(frame, variant);
  const skeleton = await waitFor(() => widget()?.shadowRoot?.querySelector('.skeleton'), `${variant}: skeletons`);
  const below = () => frame.contentDocument!.querySelector('h2')!.getBoundingClientRect().top;
  let loading = widget()!.getBoundingClientRect().height;
  let whileLoading = below();
  await nextFrames(frame.contentWindow!);
  // after a rendering update when the data has not come yet (a slow engine may have had it by then)
  if (skeleton.isConnected) [loading, whileLoading] = [widget()!.getBoundingClientRect().height, below()];
  const since = frame.contentWindow!.performance.now();
  const shown = (found: HTMLElement) => cards(found).length > 0 || found.shadowRoot?.querySelector('[part~="empty"]');
  const el = await waitFor(() => {
    const found = widget();
    return found && shown(found) && found;
  }, `the ${variant} widget's cards`);
  if (variant.endsWith('facility') || variant.endsWith('-empty'))
    await waitFor(() => root(el).querySelector('[part~="facility"]'), 'the header');
  await nextFrames(frame.contentWindow!);
  const loaded = el.getBoundingClientRect().height;
  const supported = PerformanceObserver.supportedEntryTypes.includes('layout-shift');
  const cls = supported ? layoutShift(frame, since) : undefined;
  frame.remove();
  return { before, whileLoading, loading, loaded, cls };
}

describe('layout shift', () => {
  for (const [variant, goal] of Object.entries(GOALS)) {
    it(`${variant}: the element keeps its height when its data arrives (CLS < ${goal})`, async () => {
      const figures: ({ width: number } & Awaited<ReturnType<typeof measure>>)[] = [];
      for (const width of WIDTHS) figures.push({ width, ...(await measure(variant, width)) });
      const cls = (f: (typeof figures)[number]) =>
        f.cls ? `CLS ${f.cls.page.toFixed(4)} (${f.cls.widget.toFixed(4)} once loading)` : 'no layout-shift entries';
      const text = figures.map(
        (f) =>
          `${f.width}px: ${f.loading} -> ${f.loaded} px, text below at ${f.before} -> ${f.whileLoading}, ${cls(f)}`,
      );
      console.error(`layout shift, ${variant}: ${text.join('; ')}`);
      for (const { width, before, whileLoading, loading, loaded, cls } of figures) {
        // Before the module runs, the snippet's style rule or the bare tags' placeholder holds the loading state's
        // height. The placeholder holds a single row of cards (at 1280 px: four columns) at the middle of
        // its range: within 2.2rem.
        const held = variant.startsWith('bare') && width > 768 ? 2.2 * 16 : 2;
        ok(
          Math.abs(whileLoading - before) < held,
          `${variant} at ${width}: the text below ${before} -> ${whileLoading}`,
        );
        const score = cls?.page;
        if (score !== undefined)
          ok(score < goal, `${variant} at ${width} px: CLS ${score.toFixed(4)} (goal < ${goal})`);
        // Promotions and features (the richer fixture of show-facility) add lines to a card, and the bare tags' six
        // cards come after three skeletons: the height grows below. Within 2 px: WebKit rounds a card's text lines and
        // a skeleton's bars apart by a fraction of a pixel.
        if (!variant.endsWith('facility') && !variant.startsWith('bare'))
          ok(Math.abs(loaded - loading) < 2, `${variant} at ${width}: ${loading} -> ${loaded}`);
      }
    });
  }
});
