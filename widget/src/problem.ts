// What each failure says to the visitor (or, for a 401, a 403 or a bad signature, to the site owner), and its Retry button.
import { html, nothing, type TemplateResult } from 'lit';
import type { WidgetError } from './errors.ts';
import type { Translate } from './i18n.ts';

/** Shown alike: the source is not the one the page trusts (a pinned facility or minimum version included). */
const VERIFICATION = [
  'signature_invalid',
  'unknown_kid',
  'kid_mismatch',
  'verification_unavailable',
  'facility_mismatch',
  'snapshot_rollback',
];

export function messageFor(error: WidgetError, t: Translate): string {
  if (error.status === 401) return t('errorAuth');
  if (error.code === 'origin_not_allowed') return t('errorOrigin');
  if (error.status === 429) return t('errorRate', { s: Math.max(1, error.retryAfter) });
  if (error.code === 'network_error') return t('errorNetwork');
  // A setup fault: an attribute that cannot be used, or a file it names that its server refuses (keys-url's 404).
  if (error.attribute) return t('errorAttribute', { name: error.attribute });
  if (error.code === 'invalid_config') return t('errorConfig');
  if (error.code === 'snapshot_expired') return t('errorExpired');
  // A 5xx is an outage, of the signature or keys file too: only a file that fails its check is the source refused.
  if (error.transient) return t('errorServer');
  if (VERIFICATION.includes(error.code) || error.code.endsWith('_unavailable')) return t('errorVerify');
  return t('errorLoad'); // retrying cannot help (no Retry button): nor does the text ask for it
}

export interface Retry {
  onRetry: () => void;
  /** True while a Retry-After period runs: retrying earlier would only be refused again. */
  waiting: boolean;
}

/** The error state: a message, the code for whoever debugs it, and a Retry button when retrying can help. */
export function problemView(message: string, error: WidgetError, t: Translate, retry?: Retry): TemplateResult {
  const button =
    retry && error.transient
      ? html`<button type="button" class="primary" ?disabled=${retry.waiting} @click=${retry.onRetry}>${t('retry')}</button>`
      : nothing;
  // prettier-ignore
  return html`<div part="error" class="problem"><p>${message}</p><p class="muted">${t('errorCode', { code: error.code })}</p>${button}</div>`;
}
