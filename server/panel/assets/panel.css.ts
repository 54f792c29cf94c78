// The panel's stylesheet, its components' included (they render in the light DOM): readable from 390 px wide up,
// visible focus, contrast above WCAG AA.
export const PANEL_CSS = `
:root { color-scheme: light; font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; }
body { margin: 0; }
a { color: #0a58a8; }
:focus-visible { outline: 3px solid #0a58a8; outline-offset: 2px; }
.bar { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .75rem 1rem;
  background: #f2f4f7; border-bottom: 1px solid #d0d5dd; }
.brand { font-weight: 700; text-decoration: none; color: #1a1a1a; }
nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
.who { display: flex; gap: .5rem; align-items: center; margin-left: auto; }
main { padding: 1rem; max-width: 72rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.25rem; }
h3 { font-size: 1.05rem; margin: 0 0 .5rem; }
.tabs ul { border-bottom: 1px solid #d0d5dd; padding-bottom: .5rem; }
.tabs a[aria-current='page'] { font-weight: 700; color: #1a1a1a; }
.stack { display: grid; gap: .35rem; max-width: 32rem; margin-bottom: 1.5rem; }
input, textarea, button { font: inherit; }
input, textarea { padding: .4rem; border: 1px solid #667085; border-radius: 4px; width: 100%; box-sizing: border-box; }
button { padding: .4rem .9rem; border: 1px solid #0a58a8; background: #0a58a8; color: #fff; border-radius: 4px;
  cursor: pointer; justify-self: start; }
label { display: block; margin-top: .5rem; }
button.copy { display: block; margin: .5rem 0 1rem; }
button.danger { background: #b42318; border-color: #b42318; }
.who button { background: #fff; color: #0a58a8; }
.muted { color: #555; font-weight: 400; }
.badge { display: inline-block; padding: 0 .4rem; border-radius: 999px; background: #fef0c7; color: #7a2e0e;
  font-size: .8rem; white-space: nowrap; }
.problems { border: 1px solid #b42318; background: #fef3f2; color: #7a271a; padding: .5rem 1rem; border-radius: 4px; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; min-width: 100%; }
th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #e4e7ec; vertical-align: top; }
.keys { list-style: none; padding: 0; display: grid; gap: 1rem; }
.key { border: 1px solid #d0d5dd; border-radius: 6px; padding: .75rem 1rem; }
.key dl, .facts { display: grid; grid-template-columns: max-content 1fr; gap: .1rem 1rem; margin: 0 0 .5rem; }
.key dd, .facts dd { margin: 0; overflow-wrap: anywhere; }
.secret { font-family: ui-monospace, monospace; }
code { overflow-wrap: anywhere; }
panel-listings, panel-revoke, panel-key-form, panel-copy { display: block; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%);
  white-space: nowrap; }
.field-error { margin: 0; color: #b42318; font-size: .9rem; }
.field-error:empty { display: none; }
[aria-invalid='true'] { border: 2px solid #b42318; }
dialog { max-width: min(32rem, calc(100vw - 2rem)); box-sizing: border-box; padding: 1rem 1.25rem;
  border: 1px solid #d0d5dd; border-radius: 6px; color: #1a1a1a; }
dialog::backdrop { background: rgb(0 0 0 / .45); }
dialog h2 { margin-top: 0; }
.actions { display: flex; flex-wrap: wrap; gap: .5rem; }
button.secondary { background: #fff; color: #0a58a8; }
button:disabled { opacity: .6; cursor: progress; }
.filter { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin-bottom: .5rem; }
.filter div { flex: 1 1 9rem; max-width: 14rem; }
.filter label { margin-top: 0; }
th a { color: inherit; }
th[aria-sort='ascending'] a::after { content: ' \\2191'; content: ' \\2191' / ''; }
th[aria-sort='descending'] a::after { content: ' \\2193'; content: ' \\2193' / ''; }
`;
