// <panel-revoke>: a key's row whose Revoke button asks in an in-page dialog, posts with the form token and marks the
// row revoked in place. Without JavaScript the same button opens the confirmation page, which posts the same form.
import { html, LitElement, nothing } from 'lit';
import { property, state } from 'lit/decorators.js';
import { revokeKey } from './revoke-request.ts';

let rows = 0;

/**
 * Wraps the `<form data-revoke>` of an active key's row, whose submission it takes over; the row is the table row it
 * sits in (or the element itself), with the key's `[data-key-state]` and its name (`[data-key-name]`). Escape or Cancel
 * closes the dialog and puts focus back on the Revoke button; after revoking, focus goes to the key's name and a
 * status says so.
 *
 * @fires panel-revoke - The key is revoked. `detail: { revoked_at }`.
 */
export class PanelRevoke extends LitElement {
  /** The revoke form's URL (`/keys/ID/revoke`). */
  @property() action = '';
  /** The session's form token, sent with the POST. */
  @property() csrf = '';
  /** The dialog's question: which key, of which facility, and that it cannot be undone. */
  @property() question = '';
  @property({ attribute: 'confirm-label' }) confirmLabel = '';
  @property({ attribute: 'cancel-label' }) cancelLabel = '';
  /** Put before the server's reason when revoking failed. */
  @property({ attribute: 'failed-label' }) failedLabel = '';
  /** What the status says once the key is revoked. */
  @property({ attribute: 'done-label' }) doneLabel = '';
  @state() protected busy = false;
  @state() protected failure = '';
  @state() protected done = false;
  private readonly uid = `revoke-${++rows}`;
  private opener: HTMLElement | null = null;

  constructor() {
    super();
    this.addEventListener('submit', (event) => this.ask(event));
  }

  // Light DOM: the row's server-rendered content stays where it is, and the panel's stylesheet styles the dialog.
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override render() {
    const id = this.uid;
    return html`<dialog aria-labelledby="${id}-title" aria-describedby="${id}-question" @close=${this.closed}>
        <h2 id="${id}-title">${this.confirmLabel}</h2>
        <p id="${id}-question">${this.question}</p>
        ${this.failure ? html`<p class="problems" role="alert">${this.failedLabel} ${this.failure}</p>` : nothing}
        <div class="actions">
          <button type="button" class="danger" ?disabled=${this.busy} @click=${this.confirm}>${this.confirmLabel}</button>
          <button type="button" class="secondary" data-cancel @click=${() => this.dialog()?.close()}>
            ${this.cancelLabel}
          </button>
        </div>
      </dialog>
      <p class="visually-hidden" role="status">${this.done ? this.doneLabel : ''}</p>`;
  }

  private dialog(): HTMLDialogElement | null {
    return this.querySelector('dialog');
  }

  private ask(event: SubmitEvent): void {
    const form = event.target as HTMLFormElement;
    const dialog = this.dialog();
    if (!form.hasAttribute('data-revoke') || !dialog) return;
    event.preventDefault();
    this.opener = event.submitter ?? form.querySelector('button');
    this.failure = '';
    dialog.showModal();
    // Cancel first: a stray Enter must not revoke a key.
    this.querySelector<HTMLButtonElement>('[data-cancel]')?.focus();
  }

  private closed(): void {
    if (!this.done) this.opener?.focus();
  }

  private async confirm(): Promise<void> {
    this.busy = true;
    const result = await revokeKey(this.action, this.csrf);
    this.busy = false;
    if (!result.ok) {
      this.failure = result.problem;
      return;
    }
    const row = this.closest('tr') ?? this;
    const state = row.querySelector('[data-key-state]');
    if (state) state.textContent = result.state;
    // A revoked key has nothing left to edit or revoke, as the page the server renders shows it.
    for (const gone of row.querySelectorAll('form[data-revoke], details')) gone.remove();
    row.classList.add('inactive');
    this.done = true;
    this.dialog()?.close();
    const heading = row.querySelector<HTMLElement>('[data-key-name]');
    heading?.setAttribute('tabindex', '-1');
    heading?.focus();
    this.dispatchEvent(
      new CustomEvent('panel-revoke', { detail: { revoked_at: result.revoked_at }, bubbles: true, composed: true }),
    );
  }
}
