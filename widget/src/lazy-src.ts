// `src=${lazySrc(url)}`: an image's src, set only when the image comes near the viewport. Chromium does real work for
// every <img> given a src, even with loading="lazy", so a long list would spend most of its render time on images
// nobody has scrolled to yet. One IntersectionObserver for every widget on the page reveals them; an image already
// revealed takes a new URL at once. An image Lit removes (a card gone on refresh, the widget taken off the page) stops
// being observed, so nothing keeps it alive.
import { noChange } from 'lit';
import { AsyncDirective } from 'lit/async-directive.js';
import { directive, PartType, type AttributePart, type PartInfo } from 'lit/directive.js';

/** How far outside the viewport an image starts loading: about as far ahead as Chromium's own lazy loading. */
const AHEAD = '1250px';

const wanted = new WeakMap<Element, string>();
const revealed = new WeakSet<Element>();
let observer: IntersectionObserver | undefined;

function reveal(entries: IntersectionObserverEntry[]): void {
  for (const entry of entries) {
    if (!entry.isIntersecting) continue;
    const img = entry.target;
    observer?.unobserve(img);
    revealed.add(img);
    const url = wanted.get(img);
    if (url !== undefined) img.setAttribute('src', url);
  }
}

class LazySrc extends AsyncDirective {
  private img: Element | undefined;

  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ATTRIBUTE || part.name !== 'src')
      throw new Error('lazySrc() only binds an src attribute');
  }

  render(url: string): unknown {
    return url; // server-side or static rendering: a plain src
  }

  override update(part: AttributePart, [url]: [string]): unknown {
    const img = (this.img = part.element);
    wanted.set(img, url);
    if (revealed.has(img)) {
      if (img.getAttribute('src') !== url) img.setAttribute('src', url);
    } else if (typeof IntersectionObserver === 'function') {
      (observer ??= new IntersectionObserver(reveal, { rootMargin: AHEAD })).observe(img);
    } else {
      revealed.add(img);
      img.setAttribute('src', url);
    }
    return noChange;
  }

  protected override disconnected(): void {
    if (this.img) observer?.unobserve(this.img);
  }

  protected override reconnected(): void {
    if (this.img && !revealed.has(this.img)) observer?.observe(this.img);
  }
}

export const lazySrc = directive(LazySrc);
