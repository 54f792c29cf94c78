// A snapshot carries every promotion with its times, and the widget decides which are active when it shows them, with
// the shared pricing module: on a controlled clock, a promotion that starts after generated_at shows once the clock
// passes its start (the widget re-prices at that instant), one that ended is gone, and a read a week later is right.
import type { Snapshot } from '../../shared/listing.ts';
import { deepEqual, equal, ok } from './assert.ts';
import { describe, it, mount, part, root, setClock, token, visibleText, waitFor, waitForCards } from './helpers.ts';

const HOUR = 60 * 60 * 1000;
const money = (minor: number) =>
  new Intl.NumberFormat('en', { style: 'currency', currency: 'PLN' }).format(minor / 100).replace(/\s+/g, ' ');

/** The signed snapshot with promotions, as the widget reads it. */
const attributes = () => ({
  src: `/snap/@${token()}/promotions/listings.json`,
  'keys-url': '/snap/keys.json',
  locale: 'en',
});

/** The instants the fixture's promotions start and end at (the test runner's start decides them). */
async function times(): Promise<{ springStarts: number; springEnds: number; hourEnds: number }> {
  const snapshot = (await (await fetch('/snap/promotions/listings.json')).json()) as Snapshot;
  const promotion = (code: string) => snapshot.listings.flatMap((l) => l.promotions).find((p) => p.code === code)!;
  const instant = (time: string | null) => Date.parse(time ?? '');
  const spring = promotion('SPRING');
  return {
    springStarts: instant(spring.starts_at),
    springEnds: instant(spring.ends_at),
    hourEnds: instant(promotion('HOUR20').ends_at),
  };
}

/** Each card's code and the title of the promotion it shows (or none). */
async function promotionsShown(el: HTMLElement): Promise<Record<string, string | null>> {
  const shown = await waitForCards(el, 3);
  return Object.fromEntries(
    shown.map((c) => [
      c.querySelector('.code')?.textContent ?? '',
      part(c, 'promotion')?.querySelector('.promotion-title')?.textContent ?? null,
    ]),
  );
}

describe('a snapshot prices its promotions when shown', () => {
  it('shows a promotion that starts after generated_at once the clock passes its start', async () => {
    const { springStarts, hourEnds } = await times();
    ok(springStarts > hourEnds, 'the fixture: one ends before the other starts');
    setClock(springStarts - 1500);
    const el = mount(attributes());
    deepEqual(
      await promotionsShown(el),
      { 'M-07': '50% off your first month', 'S-01': null, 'L-12': null },
      'before its start: the ended one gone, the coming one not yet',
    );
    const card = (await waitForCards(el, 3)).find((c) => c.querySelector('.code')?.textContent === 'L-12')!;
    const promotion = await waitFor(() => part(card, 'promotion'), 'the promotion once the clock passes its start');
    equal(promotion.querySelector('.promotion-title')?.textContent, 'First 3 months 1 zł');
    equal(part(promotion, 'regular-price')?.textContent?.replace(/\s+/g, ' '), money(59900));
    ok(Date.now() >= springStarts, 'not before its start');
  });

  it("shows the week's promotions to a read a week after generated_at: schedule and move-in priced then", async () => {
    const { springStarts } = await times();
    setClock(springStarts + 6 * 24 * HOUR);
    const el = mount(attributes());
    deepEqual(await promotionsShown(el), {
      'M-07': '50% off your first month',
      'S-01': null,
      'L-12': 'First 3 months 1 zł',
    });
    const card = (await waitForCards(el, 3)).find((c) => c.querySelector('.code')?.textContent === 'L-12')!;
    card.querySelector<HTMLButtonElement>('[data-action="details"]')!.click();
    const moveIn = await waitFor(() => part(root(el), 'move-in'), 'the move-in total');
    const rows = (dl: Element | null | undefined) =>
      [...(dl?.querySelectorAll(':scope > div') ?? [])].map(
        (row) => `${visibleText(row.querySelector('dt'))}: ${visibleText(row.querySelector('dd'))}`,
      );
    deepEqual(rows(root(el).querySelector('.schedule dl')), [
      `month 1–3: ${money(100)} First 3 months 1 zł`,
      `month 4+: ${money(59900)}`,
    ]);
    // The snapshot's own move_in is as of generated_at (599 zł for the first month): the widget's is as of now.
    equal(rows(moveIn.querySelector('dl'))[0], `First month: ${money(100)}`);
    equal(rows(moveIn.querySelector('dl')).at(-1), `Total: ${money(100 + 29900 + 4900 + 1500)}`);
  });

  it('drops a promotion once it has ended', async () => {
    const { springEnds } = await times();
    setClock(springEnds + HOUR);
    deepEqual(await promotionsShown(mount(attributes())), {
      'M-07': '50% off your first month',
      'S-01': null,
      'L-12': null,
    });
  });
});
