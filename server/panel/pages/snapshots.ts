// The Snapshots tab: the last version on the configured target, its expiry, and "publish now".
import { html } from '../../http/pages/html.ts';
import type { Authenticated } from '../auth.ts';
import type { Texts } from '../i18n/i18n.ts';
import type { SnapshotState } from '../snapshots.ts';
import { csrfField, when } from './layout.ts';

export function snapshotsBody(
  tx: Texts,
  who: Authenticated,
  facilityId: string,
  state: SnapshotState | undefined,
  done?: string,
) {
  const { t } = tx;
  if (!state) return html`<p>${t.noTarget}</p>`;
  const p = state.published;
  return html`${done ? html`<p role="status">${done}</p>` : ''}
<dl class="facts">
<dt>${t.target}</dt><dd>${state.target}</dd>
<dt>${t.lastVersion}</dt><dd>${p ? p.version : t.neverPublished}</dd>
<dt>${t.generated}</dt><dd>${p ? when(tx, p.generatedAt) : '-'}</dd>
<dt>${t.expires}</dt><dd>${p ? when(tx, p.expiresAt) : '-'}</dd>
</dl>
<form method="post" action="/facilities/${encodeURIComponent(facilityId)}/snapshots/publish">
${csrfField(who)}
<button type="submit">${t.publishNow}</button>
</form>`;
}

/** The facilities list's snapshot column. */
export function snapshotCell(tx: Texts, state: SnapshotState | undefined): string {
  if (!state) return tx.t.noTargetCell;
  const p = state.published;
  return p ? tx.t.versionCell(p.version, when(tx, p.expiresAt)) : tx.t.notPublished;
}
