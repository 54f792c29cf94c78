// Two-factor enrolment: the QR code (an SVG made here, shown as a data: image the CSP allows) and the otpauth:// URI,
// the first code that confirms it, then the recovery codes, shown this once.
import QRCode from 'qrcode';
import { html, type Html } from '../../http/pages/html.ts';
import type { Authenticated } from '../auth.ts';
import { accountTexts } from '../i18n/accounts.ts';
import type { Texts } from '../i18n/i18n.ts';
import { csrfField } from './layout.ts';

async function qrDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

export async function enrolBody(
  tx: Texts,
  who: Authenticated,
  uri: string,
  notes: { required: boolean; wrong: boolean },
): Promise<Html> {
  const a = accountTexts(tx.lang);
  return html`${notes.required ? html`<p role="status">${a.enrolRequired}</p>` : ''}
${notes.wrong ? html`<p class="problems" role="alert">${a.wrongCode}</p>` : ''}
<p>${a.enrolIntro}</p>
<img src="${await qrDataUrl(uri)}" alt="${a.qrAlt}" width="220" height="220">
<label for="otpauth-uri">${a.uriLabel}</label>
<input id="otpauth-uri" readonly value="${uri}" class="secret">
<form method="post" action="/account/2fa" class="stack">
${csrfField(who)}
<label for="code">${a.appCodeLabel}</label>
<input id="code" name="code" autocomplete="one-time-code" inputmode="numeric" pattern="[0-9]{6}" maxlength="6" required>
<button type="submit">${a.turnOn}</button>
</form>`;
}

export function alreadyOnBody(tx: Texts): Html {
  return html`<p>${accountTexts(tx.lang).alreadyOn}</p>`;
}

export function recoveryBody(tx: Texts, codes: readonly string[]): Html {
  const a = accountTexts(tx.lang);
  return html`<p role="status">${a.recoveryIntro}</p>
<h2>${a.recoveryCodes}</h2>
<ul class="recovery-codes">${codes.map((c) => html`<li><code>${c}</code></li>`)}</ul>
<p><a href="/">${a.continue}</a></p>`;
}
