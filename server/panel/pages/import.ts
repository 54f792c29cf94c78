// The Import page: upload a file; every problem listed with its JSON path, nothing applied unless all of it is valid.
import { html, type Html } from '../../http/pages/html.ts';
import type { ImportSummary } from '../../store/facilities.ts';
import type { Authenticated } from '../auth.ts';
import { csrfField, errorList } from './layout.ts';

export function importBody(
  who: Authenticated,
  outcome?: { problems: readonly string[] } | { summary: ImportSummary },
): Html {
  const result =
    outcome === undefined
      ? ''
      : 'problems' in outcome
        ? errorList('Nothing was imported. Fix these problems and upload the file again:', outcome.problems)
        : html`<p role="status">Imported ${outcome.summary.facilities} facilities with ${outcome.summary.listings}
active listings; ${outcome.summary.deactivated} listings no longer in the file became inactive.</p>`;
  return html`${result}
<p>A facility in the file replaces the stored one as a whole. The file is applied only when every value in it is valid.</p>
<form method="post" action="/import" enctype="multipart/form-data" class="stack">
${csrfField(who)}
<label for="file">Import file (JSON)</label>
<input id="file" name="file" type="file" accept="application/json,.json" required>
<button type="submit">Import</button>
</form>`;
}
