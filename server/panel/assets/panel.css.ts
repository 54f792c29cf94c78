// The panel's stylesheet, its components' included (they render in the light DOM): the widget's type scale, spacing and
// palette, light or dark as the system prefers, readable from 360 px wide up, visible focus, contrast above WCAG AA.
export const PANEL_CSS = `
:root { color-scheme: light dark; --text: #1f2328; --muted: #59636e; --bg: #fff; --surface: #f6f8fa;
  --border: #d1d9e0; --line: #e4e7ec; --accent: #0a58a8; --accent-text: #fff; --danger: #b42318;
  --danger-bg: #fef3f2; --danger-text: #7a271a; --badge-bg: #fef0c7; --badge-text: #7a2e0e; --ok-bg: #dafbe1;
  --ok-text: #116329; font: 1rem/1.5 system-ui, -apple-system, 'Segoe UI', sans-serif; color: var(--text);
  background: var(--bg); }
@media (prefers-color-scheme: dark) {
  :root { --text: #e6edf3; --muted: #9198a1; --bg: #0d1117; --surface: #151b23; --border: #3d444d; --line: #262c36;
    --accent: #4493f8; --accent-text: #0d1117; --danger: #f85149; --danger-bg: #2d1214; --danger-text: #ffdcd7;
    --badge-bg: #3b2300; --badge-text: #f2cc60; --ok-bg: #0f2d1a; --ok-text: #7ee2a8; }
}
body { margin: 0; }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.bar { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .75rem 1rem;
  background: var(--surface); border-bottom: 1px solid var(--border); }
.brand { display: inline-flex; align-items: center; gap: .5rem; font-weight: 700; text-decoration: none;
  color: var(--text); }
.brand .operator { font-weight: 400; color: var(--muted); }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
.who { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin-left: auto; font-size: .875rem; }
main { padding: 1rem; max-width: 75rem; box-sizing: border-box; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: .5rem 0 1rem; }
h2 { font-size: 1.25rem; line-height: 1.3; margin: 1.25rem 0 .75rem; }
h3 { font-size: 1.0625rem; margin: 0 0 .5rem; }
.tabs ul { border-bottom: 1px solid var(--border); padding-bottom: .5rem; }
.tabs a[aria-current='page'] { font-weight: 700; color: var(--text); }
.stack { display: grid; gap: .5rem; max-width: 32rem; margin-bottom: 1.5rem; }
input, textarea, button, select { font: inherit; color: inherit; }
input, textarea, select { padding: .375rem .5rem; border: 1px solid var(--muted); border-radius: .375rem; width: 100%;
  box-sizing: border-box; background: var(--bg); }
input[type='checkbox'] { width: auto; margin: 0; accent-color: var(--accent); }
input[type='color'] { padding: .125rem; height: 2.25rem; }
button { padding: .375rem 1rem; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-text);
  border-radius: .375rem; cursor: pointer; justify-self: start; }
label { display: block; margin-top: .5rem; }
button.copy { display: block; margin: .5rem 0 1rem; }
button.danger { background: var(--danger); border-color: var(--danger); color: var(--bg); }
.who button, button.secondary { background: var(--bg); color: var(--accent); }
.muted { color: var(--muted); font-weight: 400; }
.badge { display: inline-block; padding: 0 .5rem; border-radius: 999px; background: var(--badge-bg);
  color: var(--badge-text); font-size: .875rem; white-space: nowrap; }
.badge.ok { background: var(--ok-bg); color: var(--ok-text); }
.badge.off { background: var(--surface); color: var(--muted); border: 1px solid var(--border); }
.problems { border: 1px solid var(--danger); background: var(--danger-bg); color: var(--danger-text);
  padding: .5rem 1rem; border-radius: .5rem; }
.scroll { overflow-x: auto; position: relative; margin-bottom: 1rem; }
/* On a phone a wide table scrolls sideways at a readable width, its row names staying in view, rather than
   breaking a date at its hyphens. */
.scroll table { min-width: max(100%, 44rem); }
.scroll td, .scroll tbody th { min-width: 6.5rem; }
.scroll tbody th[scope='row'] { position: sticky; left: 0; background: var(--bg); }
table { border-collapse: collapse; min-width: 100%; font-size: .9375rem; }
th, td { text-align: left; padding: .5rem .75rem; border-bottom: 1px solid var(--line); vertical-align: top; }
thead th { font-size: .875rem; color: var(--muted); }
tr.inactive { color: var(--muted); }
.terms { margin: 0; padding: 0; list-style: none; font-size: .875rem; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: 0 0 1rem; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.facts dt { color: var(--muted); }
.keys td form { margin: 0; }
/* A key's state and times on one line each: a revoked row keeps the height of the rows beside it. */
.keys td.when { white-space: nowrap; }
.keys details { margin-top: .25rem; }
.keys details .stack { margin: .5rem 0; min-width: 14rem; }
.secret { font-family: ui-monospace, monospace; }
code, textarea#embed { overflow-wrap: anywhere; font-family: ui-monospace, monospace; font-size: .875rem; }
/* A command keeps its lines as typed, to copy whole: a long one scrolls sideways within its block, not the page. */
pre { overflow-x: auto; max-width: 100%; }
pre code { overflow-wrap: normal; }
panel-listings, panel-revoke, panel-key-form, panel-copy, panel-embed { display: block; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
  white-space: nowrap; }
.field-error { margin: 0; color: var(--danger); font-size: .875rem; }
.field-error:empty { display: none; }
[aria-invalid='true'] { border: 2px solid var(--danger); }
dialog { max-width: min(32rem, calc(100vw - 2rem)); box-sizing: border-box; padding: 1rem 1.25rem;
  border: 1px solid var(--border); border-radius: .5rem; color: var(--text); background: var(--bg); }
dialog::backdrop { background: rgb(0 0 0 / .45); }
dialog h2 { margin-top: 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; }
button:disabled { opacity: .6; cursor: progress; }
.filter, .filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin-bottom: 1rem; }
.filter div, .filters div { flex: 1 1 9rem; max-width: 14rem; }
.filter .check { flex: 0 1 auto; max-width: none; }
.filter label, .filters label { margin-top: 0; }
.check { display: flex; gap: .5rem; align-items: center; margin-top: .5rem; }
.check label { margin: 0; }
th a { color: inherit; }
th[aria-sort='ascending'] a::after { content: ' \\2191'; content: ' \\2191' / ''; }
th[aria-sort='descending'] a::after { content: ' \\2193'; content: ' \\2193' / ''; }
fieldset { border: 1px solid var(--border); border-radius: .5rem; padding: .5rem 1rem 1rem; margin: 0; min-width: 0; }
legend { font-weight: 600; padding: 0 .25rem; }
.embed { display: grid; gap: 1rem 1.5rem; grid-template-columns: minmax(0, 1fr); align-items: start; }
@media (min-width: 60rem) { .embed { grid-template-columns: minmax(18rem, 22rem) minmax(0, 1fr); } }
.embed-form { max-width: none; margin: 0; }
.colours { display: grid; grid-template-columns: repeat(auto-fill, minmax(7rem, 1fr)); gap: 0 .75rem; }
.preview-frame { border: 1px dashed var(--border); border-radius: .5rem; padding: 1rem; background: var(--bg); }
.preview-frame[data-theme='dark'] { color-scheme: dark; }
.preview-frame[data-theme='light'], .preview-frame[data-theme='warm'] { color-scheme: light; }
textarea#embed { min-height: 8rem; }
.info { display: grid; gap: 0 2rem; grid-template-columns: repeat(auto-fit, minmax(16rem, 1fr)); margin-bottom: 1rem; }
.info table { min-width: 0; }
/* The referral chart's words sit outside its SVG at the page's size; the 4% insets are the SVG's own margins. */
.referral-figure { margin: 0 0 1rem; max-width: 48rem; }
.referral-chart { display: block; }
.referral-axis { display: flex; justify-content: space-between; padding: 0 4%; font-size: .875rem; color: var(--muted); }
.referral-figure p { padding: 0 4%; }
.referral-figure p svg { vertical-align: -1px; }
.referrals th[scope='row'] { white-space: nowrap; }
.note { border-left: 4px solid var(--border); padding: .25rem 1rem; background: var(--surface); }
`;
