// The Import page: upload a file; every problem listed with its JSON path, nothing applied unless all of it is valid.
import { html, type Html } from '../../http/pages/html.ts';
import type { ImportSummary } from '../../store/facilities.ts';
import type { Authenticated } from '../auth.ts';
import type { Texts } from '../i18n/i18n.ts';
import { csrfField, errorList } from './layout.ts';

export type ImportOutcome = { problems: readonly string[] } | { summary: ImportSummary };

export function importBody({ t }: Texts, who: Authenticated, outcome?: ImportOutcome): Html {
  const result =
    outcome === undefined
      ? ''
      : 'problems' in outcome
        ? errorList(t.importFailed, outcome.problems)
        : html`<p role="status">${t.imported(outcome.summary.facilities, outcome.summary.listings, outcome.summary.deactivated)}</p>`;
  return html`${result}
<p>${t.importIntro}</p>
<form method="post" action="/import" enctype="multipart/form-data" class="stack">
${csrfField(who)}
<label for="file">${t.importFile}</label>
<input id="file" name="file" type="file" accept="application/json,.json" required>
<button type="submit">${t.import}</button>
</form>`;
}
