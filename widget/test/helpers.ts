// Shared test plumbing: mocha's globals typed, mounting a widget, waiting for it, and the fake API's test routes.
import type { Detail } from '../../shared/listing.ts';
import '../src/define.ts';
import type { StorageListings } from '../src/storage-listings.ts';
import { API_KEY } from './server/fixtures.js';

type Test = () => void | Promise<void>;
interface Mocha {
  describe(title: string, body: () => void): void;
  it(title: string, test: Test): void;
  beforeEach(hook: Test): void;
  afterEach(hook: Test): void;
}
export const { describe, it, beforeEach, afterEach } = globalThis as unknown as Mocha;

export { API_KEY };

/** A fresh token: its own request log, state and HTTP cache entries on the fake server. */
export function token(): string {
  return `t${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
}

export function liveAttributes(scenario: string, t: string): Record<string, string> {
  return { 'api-key': API_KEY, 'api-base': `/api/${scenario}/${t}` };
}

declare global {
  interface Window {
    /** Set by the CSP pages' listener: every CSP violation and every uncaught error, as text. */
    __violations?: string[];
    __errors?: string[];
  }
}

const mounted = new Set<HTMLElement>();
const realNow = Date.now.bind(Date);
afterEach(() => {
  for (const element of mounted) element.remove();
  mounted.clear();
  Date.now = realNow;
});

/**
 * Sets the page's clock (`Date.now`) to `instant`, from where it runs on in real time; each test ends on the real clock.
 * Timers keep real time: a timer the widget sets for a later instant fires when this clock reaches it.
 */
export function setClock(instant: number): void {
  const offset = instant - realNow();
  Date.now = () => realNow() + offset;
}

/** Creates a <storage-listings>, lets `before` attach listeners, then puts it in the page. */
export function mount(
  attributes: Record<string, string | boolean>,
  before?: (element: StorageListings) => void,
  parent: HTMLElement = document.body,
): StorageListings {
  const element = document.createElement('storage-listings');
  for (const [name, value] of Object.entries(attributes)) {
    if (value === true) element.setAttribute(name, '');
    else if (value !== false) element.setAttribute(name, value);
  }
  before?.(element);
  parent.append(element);
  mounted.add(element);
  return element;
}

/** Opens one of the fake server's pages in an iframe (800 px wide unless told), removed after the test. */
export function openPage(url: string, size: { width: number; height?: number } = { width: 800 }): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.src = url;
  frame.style.width = `${size.width}px`;
  if (size.height) frame.style.height = `${size.height}px`;
  document.body.append(frame);
  mounted.add(frame);
  return frame;
}

/** The <storage-listings> elements of a framed page, once `count` of them have upgraded and rendered a card. */
export function framedWidgets(frame: HTMLIFrameElement, count: number): Promise<HTMLElement[]> {
  return waitFor(() => {
    const found = [...(frame.contentDocument?.querySelectorAll('storage-listings') ?? [])] as HTMLElement[];
    // not upgraded yet: no shadow root until the module has run in the frame
    return found.length === count && found.every((w) => w.shadowRoot && cards(w).length > 0) && found;
  }, `${count} widget(s) rendered inside the framed page`);
}

export function root(element: HTMLElement): ShadowRoot {
  const shadow = element.shadowRoot;
  if (!shadow) throw new Error('no shadow root');
  return shadow;
}

export function cards(element: HTMLElement): HTMLElement[] {
  return [...root(element).querySelectorAll<HTMLElement>('[part~="listing"]')];
}

export function part(scope: ParentNode, name: string): HTMLElement | null {
  return scope.querySelector<HTMLElement>(`[part~="${name}"]`);
}

/**
 * Resolves after two frames: the layout has been through a rendering update by then, so IntersectionObservers have seen
 * it and content-visibility: auto has laid out the cards on screen (before that a card measures its placeholder size).
 */
export const frames = () =>
  new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Polls until `probe` returns something truthy; fails with `what` after `timeout` ms. */
export async function waitFor<T>(probe: () => T | null | undefined | false, what: string, timeout = 5000): Promise<T> {
  const until = Date.now() + timeout;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The details dialog, once its chunk has come (the first Details click loads it). */
export function dialogOf(element: HTMLElement): Promise<HTMLDialogElement> {
  return waitFor(() => root(element).querySelector('dialog'), 'the details dialog');
}

export function waitForCards(element: HTMLElement, count = 1): Promise<HTMLElement[]> {
  return waitFor(() => cards(element).length >= count && cards(element), `${count} card(s)`);
}

/** Every event of `type` the element fires, from the moment this is called. */
export function record<T = unknown>(element: HTMLElement, type: string): CustomEvent<T>[] {
  const events: CustomEvent<T>[] = [];
  element.addEventListener(type, (event) => events.push(event as CustomEvent<T>));
  return events;
}

export interface LogEntry {
  path: string;
  query: string;
  key?: string | null;
  ifNoneMatch?: string | null;
  status: number;
}

async function testRoute<T>(path: string): Promise<T> {
  const response = await fetch(path, { cache: 'no-store' });
  return (await response.json()) as T;
}

/** The fake server's log of this token's requests (and the switches that change its answers). */
/**
 * Whether this browser keeps an HTTP cache: a response fresh for ten minutes, fetched twice, reaches the server once.
 * WebKitGTK's automation sessions keep none (README, "Browsers").
 */
export async function hasHttpCache(): Promise<boolean> {
  const url = `/__test/${token()}/cache-probe`;
  await fetch(url);
  return (await (await fetch(url)).json()) === 1;
}

export const server = {
  log: (t: string) => testRoute<LogEntry[]>(`/__test/${t}/log`),
  bump: (t: string) => testRoute<LogEntry[]>(`/__test/${t}/bump`),
  heal: (t: string) => testRoute<LogEntry[]>(`/__test/${t}/heal`),
  break: (t: string) => testRoute<LogEntry[]>(`/__test/${t}/break`),
  /** From now on the list comes in the opposite order. */
  reverse: (t: string) => testRoute<LogEntry[]>(`/__test/${t}/reverse`),
  /** From now on the key is refused: 401 revoked_api_key. */
  revoke: (t: string) => testRoute<LogEntry[]>(`/__test/${t}/revoke`),
  fixture: (name: string) => testRoute<Detail[]>(`/__test/fixtures/${name}`),
};

/** Text a sighted visitor sees: without the visually hidden parts meant for screen readers. */
export function visibleText(element: Element | null | undefined): string {
  if (!element) return '';
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('.sr-only')) hidden.remove();
  return (copy.textContent ?? '').replace(/\s+/g, ' ').trim();
}
