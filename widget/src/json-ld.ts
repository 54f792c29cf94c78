// The element's JSON-LD script (`structured-data`), made so that writing its text is no Trusted Types sink.
import { html, render } from 'lit';

/**
 * An empty JSON-LD script, cloned by Lit from its parsed template. A script made by the parser is "already started",
 * so the browser never runs or re-checks its text: text appended to it is no Trusted Types sink, as `textContent`
 * (which throws under `require-trusted-types-for 'script'`) or text appended to a `createElement` script (a violation
 * report) would be. Lit's template passes its own `lit-html` policy, the one the page allows already.
 */
export function jsonLdScript(): HTMLScriptElement {
  const fragment = document.createDocumentFragment();
  render(html`<script type="application/ld+json"></script>`, fragment);
  return fragment.querySelector('script') as HTMLScriptElement;
}
