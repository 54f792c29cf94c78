// The frame of every panel page: landmarks, the navigation, who is logged in and the logout form.
import { html, type Html } from '../../http/pages/html.ts';
import type { Authenticated } from '../auth.ts';

export function panelPage(title: string, main: Html, who?: Authenticated): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} - storage-listings panel</title>
<link rel="stylesheet" href="/assets/panel.css">
<script type="module" src="/assets/panel.js"></script>
</head>
<body>
<header class="bar">
<a class="brand" href="/">storage-listings</a>
${who ? nav(who) : ''}
</header>
<main id="main">
<h1>${title}</h1>
${main}
</main>
</body>
</html>
`.text;
}

function nav(who: Authenticated): Html {
  return html`<nav aria-label="Panel">
<ul>
<li><a href="/">Facilities</a></li>
<li><a href="/import">Import</a></li>
<li><a href="/audit">Audit log</a></li>
</ul>
</nav>
<form method="post" action="/logout" class="who">
${csrfField(who)}
<span>${who.operator.email}</span>
<button type="submit">Log out</button>
</form>`;
}

export const csrfField = (who: Authenticated) => html`<input type="hidden" name="csrf" value="${who.session.csrf}">`;

export function errorList(title: string, problems: readonly string[]): Html {
  return html`<div class="problems" role="alert">
<p>${title}</p>
<ul>${problems.map((p) => html`<li><code>${p}</code></li>`)}</ul>
</div>`;
}

/** A time as the panel shows it, in UTC, to the minute; "never" for none. */
export function when(iso: string | null): string {
  return iso === null ? 'never' : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
