// The widget build's template minifier: only whitespace CSS ignores goes from css``, and html`` keeps one space for each
// run of whitespace with a line break, so the look is the same (checked in the browsers).
import { describe, expect, it } from 'vitest';
import { minifyCss } from '../widget/css-minify.ts';
import { minifyTemplates } from '../widget/template-minify.ts';

describe('minifyCss', () => {
  it('drops comments, indentation, the last semicolon of a block, space around > and /, and leading zeros', () => {
    const css = `
      :host {
        --_gap: var(--sl-gap, 0.5rem); /* a comment */
        border-radius: calc(var(--_radius) * 0.75);
        aspect-ratio: 4 / 3;
      }
      .actions > * {
        flex: 1 1 auto;
        vertical-align: -0.125em;
      }`;
    expect(minifyCss(css)).toBe(
      ':host{--_gap:var(--sl-gap,.5rem);border-radius:calc(var(--_radius) * .75);aspect-ratio:4/3}' +
        '.actions>*{flex:1 1 auto;vertical-align:-.125em}',
    );
  });

  it("drops a comment with a quote in it (an apostrophe: the widget's), and keeps a string with /* in it", () => {
    expect(minifyCss("p {\n  color: red; /* the page's */\n  margin: 0; /* it's */\n}")).toBe('p{color:red;margin:0}');
    expect(minifyCss(".a::before { content: '/* kept */'; }")).toBe(".a::before{content:'/* kept */'}");
  });

  it('keeps what CSS reads: strings as written, descendant selectors, pseudo-classes after a space', () => {
    expect(minifyCss(".a::before { content: ' · ; { } '; }")).toBe(".a::before{content:' · ; { } '}");
    expect(minifyCss('.grid :focus-visible { outline: 2px solid red; }')).toBe(
      '.grid :focus-visible{outline:2px solid red}',
    );
    expect(minifyCss('@media (prefers-reduced-motion: reduce) { .bar { animation: none; } }')).toBe(
      '@media (prefers-reduced-motion:reduce){.bar{animation:none}}',
    );
  });
});

describe('minifyTemplates', () => {
  it('makes each run of whitespace with a line break in html`` one space, in tags and text, around substitutions', () => {
    const code = 'const a = html`<ul>\n  <li class="x"\n    id=${id}>\n    ${text} <b>bold</b>\n  </li>\n</ul>`;';
    expect(minifyTemplates(code, 'a.ts')).toBe(
      'const a = html`<ul> <li class="x" id=${id}> ${text} <b>bold</b> </li> </ul>`;',
    );
  });

  it('minifies the html`` nested in a substitution, and leaves other template literals and escapes as written', () => {
    const code = 'html`<p>\n  ${ok ? html`<i>\n  yes</i>` : `\n  kept\n`}<\\/script>\n</p>`';
    expect(minifyTemplates(code, 'a.ts')).toBe('html`<p> ${ok ? html`<i> yes</i>` : `\n  kept\n`}<\\/script> </p>`');
  });

  it("makes a static css`` Lit's unsafeCSS of its minified text, imported once; a css`` with substitutions stays", () => {
    const code =
      "import { css } from 'lit';\nconst a = css`\n  p { color: red; }\n`;\nconst b = css`p { color: ${c}; }`;";
    expect(minifyTemplates(code, 'a.styles.ts')).toBe(
      "import { unsafeCSS as __unsafeCSS } from 'lit';\nimport { css } from 'lit';\n" +
        'const a = __unsafeCSS("p{color:red}");\nconst b = css`p { color: ${c}; }`;',
    );
  });
});
