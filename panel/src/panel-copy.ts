// <panel-copy for="ID">: a button that copies the value of the field ID (a new key, an embed snippet).
import { html, LitElement, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';

/**
 * Copies a read-only field's value to the clipboard. Renders nothing where the Clipboard API is missing (a page over
 * plain http from another host): the field is still there to select by hand, as without JavaScript.
 */
export class PanelCopy extends LitElement {
  /** The id of the input or textarea whose value is copied. */
  @property({ attribute: 'for' }) field = '';
  /** The button's text. */
  @property() label = '';
  /** What the button says, and a status announces, for two seconds after copying. */
  @property({ attribute: 'done-label' }) doneLabel = '';
  @state() protected done = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  // Light DOM: the panel's stylesheet styles this button as it does every other (the CSP allows no inline style).
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    clearTimeout(this.timer);
  }

  protected override render() {
    if (!navigator.clipboard) return nothing;
    return html`<button type="button" class="copy" @click=${this.copy}>${this.done ? this.doneLabel : this.label}</button
      ><span class="visually-hidden" role="status">${this.done ? this.doneLabel : ''}</span>`;
  }

  private async copy(): Promise<void> {
    const source = document.getElementById(this.field) as HTMLInputElement | HTMLTextAreaElement | null;
    if (!source) return;
    try {
      await navigator.clipboard.writeText(source.value);
    } catch {
      // Refused (no permission, no focus): the value is selected instead, for the keyboard's copy.
      source.focus();
      source.select();
      return;
    }
    this.done = true;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => (this.done = false), 2000);
  }
}
