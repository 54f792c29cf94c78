// The facility view's frame: its tabs.
import { html, type Html } from '../../http/pages/html.ts';
import type { Messages, Texts } from '../i18n/i18n.ts';

export const TABS = [
  ['listings', 'tabListings'],
  ['api', 'tabApi'],
  ['snapshots', 'tabSnapshots'],
  ['embed', 'tabEmbed'],
] as const satisfies readonly (readonly [string, keyof Messages])[];
export type Tab = (typeof TABS)[number][0];

export function facilityPath(id: string, tab: Tab = 'listings'): string {
  const base = `/facilities/${encodeURIComponent(id)}`;
  return tab === 'listings' ? base : `${base}/${tab}`;
}

export function tabbed({ t }: Texts, facilityId: string, current: Tab, body: Html): Html {
  return html`<nav aria-label="${t.navFacility}" class="tabs"><ul>${TABS.map(
    ([tab, label]) =>
      html`<li><a href="${facilityPath(facilityId, tab)}"${tab === current ? html` aria-current="page"` : ''}>${t[label]}</a></li>`,
  )}</ul></nav>
<section aria-labelledby="tab-title">
<h2 id="tab-title">${t[TABS.find(([tab]) => tab === current)![1]]}</h2>
${body}
</section>`;
}
