// <panel-key-form>: a key form's label, origins, rate and burst checked in the browser by the rules the server applies
// (shared/key-limits.ts), each problem under its field; the form is sent only when the rules pass.
import { LitElement, nothing, render } from 'lit';
import { state } from 'lit/decorators.js';
import { readKeyForm, type KeyFormField } from '../../shared/key-limits.ts';

const FIELDS: readonly KeyFormField[] = ['label', 'ref', 'origins', 'rate', 'burst'];
type Problems = Partial<Record<KeyFormField, string>>;
type Control = HTMLInputElement | HTMLTextAreaElement;

/**
 * Wraps a `<form>` with fields named `label`, `origins`, `rate` and `burst`, each followed by an element whose id is the
 * field's id plus `-error`. A field is checked when it is left, again while it is typed in if it had a problem, and
 * all of them on submit; a problem sets `aria-invalid` and names its message in `aria-describedby`.
 */
export class PanelKeyForm extends LitElement {
  @state() protected problems: Problems = {};
  /** The fields left or submitted once: only those show problems, not a field not yet typed in. */
  private readonly checked = new Set<KeyFormField>();

  constructor() {
    super();
    this.addEventListener('change', (event) => this.recheck(event, true));
    this.addEventListener('input', (event) => this.recheck(event, false));
    this.addEventListener('submit', (event) => this.submitted(event));
  }

  // Light DOM: the form is the page's own, which posts without JavaScript too.
  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  protected override render() {
    return nothing;
  }

  private control(field: KeyFormField): Control | null {
    return (this.querySelector('form')?.elements.namedItem(field) as Control | null) ?? null;
  }

  /** Every field's problem by the shared rules, of the checked fields only. */
  private check(): Problems {
    const value = (field: KeyFormField) => this.control(field)?.value ?? '';
    const read = readKeyForm({
      label: value('label'),
      ref: value('ref'),
      origins: value('origins'),
      rate: value('rate'),
      burst: value('burst'),
    });
    if (read.ok) return {};
    return Object.fromEntries(Object.entries(read.problems).filter(([f]) => this.checked.has(f as KeyFormField)));
  }

  private recheck(event: Event, leaving: boolean): void {
    const name = (event.target as Control).name as KeyFormField;
    if (!FIELDS.includes(name)) return;
    // While typing, only a field that shows a problem is checked again: its message goes as soon as it is fixed.
    if (leaving) this.checked.add(name);
    else if (!this.problems[name]) return;
    this.problems = this.check();
  }

  private submitted(event: SubmitEvent): void {
    FIELDS.forEach((field) => this.checked.add(field));
    this.problems = this.check();
    const first = FIELDS.find((field) => this.problems[field]);
    if (first === undefined) return;
    event.preventDefault();
    this.control(first)?.focus();
  }

  protected override updated(): void {
    for (const field of FIELDS) {
      const control = this.control(field);
      const slot = control && document.getElementById(`${control.id}-error`);
      if (!control || !slot) continue;
      const problem = this.problems[field];
      render(problem ?? nothing, slot);
      if (problem) {
        control.setAttribute('aria-invalid', 'true');
        control.setAttribute('aria-describedby', slot.id);
      } else {
        control.removeAttribute('aria-invalid');
        control.removeAttribute('aria-describedby');
      }
    }
  }
}
