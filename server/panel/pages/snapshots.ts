// The Snapshots tab: the last version on the configured target, its expiry, and "publish now".
import { html } from '../../http/pages/html.ts';
import type { Authenticated } from '../auth.ts';
import type { SnapshotState } from '../snapshots.ts';
import { csrfField, when } from './layout.ts';

export function snapshotsBody(who: Authenticated, facilityId: string, state: SnapshotState | undefined, done?: string) {
  if (!state)
    return html`<p>This panel has no publish target. Start it with <code>--publish-to</code> and
<code>--signing-key</code> to publish from here, or publish with <code>listings snapshot publish</code>.</p>`;
  const p = state.published;
  return html`${done ? html`<p role="status">${done}</p>` : ''}
<dl class="facts">
<dt>Target</dt><dd>${state.target}</dd>
<dt>Last published version</dt><dd>${p ? p.version : 'never published'}</dd>
<dt>Generated</dt><dd>${p ? when(p.generatedAt) : '-'}</dd>
<dt>Expires</dt><dd>${p ? when(p.expiresAt) : '-'}</dd>
</dl>
<form method="post" action="/facilities/${encodeURIComponent(facilityId)}/snapshots/publish">
${csrfField(who)}
<button type="submit">Publish now</button>
</form>`;
}

/** The facilities list's snapshot column. */
export function snapshotCell(state: SnapshotState | undefined): string {
  if (!state) return 'no target';
  return state.published ? `v${state.published.version}, expires ${when(state.published.expiresAt)}` : 'not published';
}
