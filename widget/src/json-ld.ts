// The element's JSON-LD script (`structured-data`), made so that writing its text is no Trusted Types sink.
import { html, render } from 'lit';

/**
 * An empty JSON-LD script from a Lit template (under the lit-html policy the page allows already). A parser-made
 * script is "already started", so text appended to it is no Trusted Types sink, as `textContent` would be. Its
 * `<\/script>` is `</script>` to Lit, and leaves no `</script` in the built file for the minifier to rewrite.
 */
export function jsonLdScript(): HTMLScriptElement {
  const fragment = document.createDocumentFragment();
  render(html`<script type="application/ld+json"><\/script>`, fragment);
  return fragment.querySelector('script') as HTMLScriptElement;
}
