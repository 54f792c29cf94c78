// The frame of every panel page: landmarks, the navigation, who is logged in and the logout form.
import { html, type Html } from '../../http/pages/html.ts';
import type { Authenticated } from '../auth.ts';
import type { Texts } from '../i18n/i18n.ts';

export function panelPage(tx: Texts, title: string, main: Html, who?: Authenticated): string {
  return html`<!doctype html>
<html lang="${tx.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} - ${tx.t.panel}</title>
<link rel="stylesheet" href="/assets/panel.css">
<script type="module" src="/assets/panel.js"></script>
</head>
<body>
<header class="bar">
<a class="brand" href="/">storage-listings</a>
${who ? nav(tx, who) : ''}
</header>
<main id="main">
<h1>${title}</h1>
${main}
</main>
</body>
</html>
`.text;
}

function nav({ t }: Texts, who: Authenticated): Html {
  return html`<nav aria-label="${t.navPanel}">
<ul>
<li><a href="/">${t.facilities}</a></li>
<li><a href="/import">${t.import}</a></li>
<li><a href="/audit">${t.audit}</a></li>
</ul>
</nav>
<form method="post" action="/logout" class="who">
${csrfField(who)}
<span>${who.operator.email}</span>
<button type="submit">${t.logOut}</button>
</form>`;
}

export const csrfField = (who: Authenticated) => html`<input type="hidden" name="csrf" value="${who.session.csrf}">`;

export function errorList(title: string, problems: readonly string[]): Html {
  return html`<div class="problems" role="alert">
<p>${title}</p>
<ul>${problems.map((p) => html`<li><code>${p}</code></li>`)}</ul>
</div>`;
}

/** A time as the panel shows it, in UTC, to the minute. */
export function when(tx: Texts, iso: string | null): string {
  return iso === null ? tx.t.never : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
