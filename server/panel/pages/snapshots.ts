// The Snapshots tab: what the CLI and this panel exported or published for the facility (from the audit log), the last
// version on the configured target with its expiry (or when the facility was withdrawn) and "publish now", or how to
// configure one.
import { html, type Html } from '../../http/pages/html.ts';
import type { AuditRow } from '../../store/audit.ts';
import type { Authenticated } from '../auth.ts';
import type { Texts } from '../i18n/i18n.ts';
import type { SnapshotState } from '../snapshots.ts';
import { canManage, csrfField, when } from './layout.ts';

const detailOf = (r: AuditRow, name: string) => {
  const value = r.detail[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};

function history(tx: Texts, rows: readonly AuditRow[]): Html {
  const { t } = tx;
  if (rows.length === 0) return html`<p>${t.noSnapshotsYet}</p>`;
  return html`<div class="scroll" role="region" aria-label="${t.snapshotHistory}" tabindex="0">
<table>
<caption class="visually-hidden">${t.snapshotHistory}</caption>
<thead><tr><th scope="col">${t.when}</th><th scope="col">${t.what}</th><th scope="col">${t.version}</th><th scope="col">${t.target}</th><th scope="col">${t.who}</th></tr></thead>
<tbody>${rows.map(
    (r) =>
      html`<tr><td>${when(tx, r.at)}</td><td>${t.snapshotActions[r.action] ?? r.action}</td><td>${detailOf(r, 'version')}</td><td>${detailOf(r, 'target')}</td><td>${r.actor}</td></tr>`,
  )}</tbody>
</table>
</div>`;
}

/** How to publish from here: the panel's flags, and the CLI's command that works without them. */
function howToPublish({ t }: Texts, facilityId: string): Html {
  return html`<div class="note">
<p>${t.noTarget}</p>
<pre role="region" aria-label="${t.publishCommands}" tabindex="0"><code>listings panel --publish-to s3://bucket/listings --signing-key data/secrets/signing-key.pem
listings snapshot publish --facility ${facilityId} --to s3://bucket/listings --signing-key data/secrets/signing-key.pem</code></pre>
</div>`;
}

/** What the target holds: the last version with its dates, or, for a tombstone, when the facility was withdrawn. */
function facts(tx: Texts, { published: p, withdrawnAt }: SnapshotState): Html {
  const { t } = tx;
  if (p && withdrawnAt)
    return html`<dt>${t.withdrawnOn}</dt><dd>${when(tx, withdrawnAt)}</dd>
<dt>${t.tombstoneVersion}</dt><dd>${p.version}</dd>`;
  return html`<dt>${t.lastVersion}</dt><dd>${p ? p.version : t.neverPublished}</dd>
<dt>${t.generated}</dt><dd>${p ? when(tx, p.generatedAt) : '-'}</dd>
<dt>${t.expires}</dt><dd>${p ? when(tx, p.expiresAt) : '-'}</dd>`;
}

export function snapshotsBody(
  tx: Texts,
  who: Authenticated,
  facilityId: string,
  state: SnapshotState | undefined,
  rows: readonly AuditRow[],
  done?: string,
) {
  const { t } = tx;
  const recent = html`<h3>${t.snapshotHistory}</h3>
${history(tx, rows)}`;
  if (!state)
    return html`${howToPublish(tx, facilityId)}
${recent}`;
  return html`${done ? html`<p role="status">${done}</p>` : ''}
<dl class="facts">
<dt>${t.target}</dt><dd>${state.target}</dd>
${facts(tx, state)}
</dl>
${
  canManage(who)
    ? html`<form method="post" action="/facilities/${encodeURIComponent(facilityId)}/snapshots/publish">
${csrfField(who)}
<button type="submit">${t.publishNow}</button>
</form>`
    : ''
}
${recent}`;
}

/** The facilities list's snapshot column. */
export function snapshotCell(tx: Texts, state: SnapshotState | undefined): string {
  if (!state) return tx.t.noTargetCell;
  const p = state.published;
  if (p && state.withdrawnAt) return tx.t.withdrawnCell(when(tx, state.withdrawnAt));
  return p ? tx.t.versionCell(p.version, when(tx, p.expiresAt)) : tx.t.notPublished;
}
