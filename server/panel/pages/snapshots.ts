// The Snapshots tab: where signed snapshots are published from, and how.
import { html } from '../../http/pages/html.ts';

export function snapshotsBody() {
  return html`<p>Signed snapshots are published with <code>listings snapshot publish</code>; this panel has no
publish target configured.</p>`;
}
