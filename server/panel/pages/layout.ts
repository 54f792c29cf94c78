// The frame of every panel page: landmarks, the product and the operator's brand, the navigation, who is logged in and
// the logout form.
import { html, type Html } from '../../http/pages/html.ts';
import { roleAllows } from '../../domain/roles.ts';
import { listedDetails } from '../../errors.ts';
import type { Authenticated } from '../auth.ts';
import type { Texts } from '../i18n/i18n.ts';
import { accountTexts } from '../i18n/accounts.ts';

export const PRODUCT = 'storage-listings';

/**
 * The operator's brand from PANEL_TITLE, shown beside the product on every page, the login page included: printable
 * text of at most 80 characters, else none (a page never fails over its title).
 */
export function brandOf(env: Record<string, string | undefined> = process.env): string {
  const title = (env.PANEL_TITLE ?? '').trim();
  return title.length <= 80 && !/[\p{Cc}]/u.test(title) ? title : '';
}

export interface PageExtras {
  /** Module scripts of the panel's own origin the page needs beside the panel's (the Embed tab's widget). */
  scripts?: readonly string[];
}

export function panelPage(tx: Texts, title: string, main: Html, who?: Authenticated, extras: PageExtras = {}): string {
  const brand = brandOf();
  return html`<!doctype html>
<html lang="${tx.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${title} - ${brand ? `${brand} - ` : ''}${tx.t.panel}</title>
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/assets/panel.css">
<script type="module" src="/assets/panel.js"></script>
${(extras.scripts ?? []).map((src) => html`<script type="module" src="${src}"></script>`)}
</head>
<body>
<header class="bar">
<a class="brand" href="/"><img src="/assets/favicon.svg" alt="" width="24" height="24"> ${PRODUCT}${brand ? html` <span class="operator">${brand}</span>` : ''}</a>
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

function nav({ t, lang }: Texts, who: Authenticated): Html {
  return html`<nav aria-label="${t.navPanel}">
<ul>
<li><a href="/">${t.facilities}</a></li>
${canManage(who) ? html`<li><a href="/import">${t.import}</a></li>` : ''}
<li><a href="/audit">${t.audit}</a></li>
${who.operator.role === 'owner' ? html`<li><a href="/operators">${accountTexts(lang).operators}</a></li>` : ''}
</ul>
</nav>
<form method="post" action="/logout" class="who">
${csrfField(who)}
<a href="/account">${who.operator.email}</a>
<button type="submit">${t.logOut}</button>
</form>`;
}

/** Whether the operator's role may change keys, imports and snapshots: a viewer is shown no form it would be refused. */
export const canManage = (who: Authenticated): boolean => roleAllows(who.operator.role, 'manager');

export const csrfField = (who: Authenticated) => html`<input type="hidden" name="csrf" value="${who.session.csrf}">`;

/** The problems, at most MAX_LISTED_DETAILS of them and then how many more, as the CLI lists them. */
export function errorList(title: string, problems: readonly string[]): Html {
  const { listed, more } = listedDetails(problems);
  return html`<div class="problems" role="alert">
<p>${title}</p>
<ul>${listed.map((p) => html`<li><code>${p}</code></li>`)}${more === undefined ? '' : html`<li>${more}</li>`}</ul>
</div>`;
}

/** A time as the panel shows it, in UTC, to the minute. */
export function when(tx: Texts, iso: string | null): string {
  return iso === null ? tx.t.never : `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}
