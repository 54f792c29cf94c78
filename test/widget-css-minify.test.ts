// The widget build's CSS minifier: only whitespace CSS ignores goes, so the look is the same (checked in the browsers).
import { describe, expect, it } from 'vitest';
import { minifyCss } from '../widget/css-minify.ts';

describe('minifyCss', () => {
  it('drops comments, indentation, the last semicolon of a block and leading zeros', () => {
    const css = `
      :host {
        --_gap: var(--sl-gap, 0.5rem); /* a comment */
        border-radius: calc(var(--_radius) * 0.75);
      }
      .actions > * {
        flex: 1 1 auto;
      }`;
    expect(minifyCss(css)).toBe(
      ':host{--_gap:var(--sl-gap,.5rem);border-radius:calc(var(--_radius) * .75)}.actions > *{flex:1 1 auto}',
    );
  });

  it('keeps what CSS reads: strings as written, descendant selectors, pseudo-classes after a space, negative numbers', () => {
    expect(minifyCss(".a::before { content: ' · ; { } '; }")).toBe(".a::before{content:' · ; { } '}");
    expect(minifyCss('.grid :focus-visible { outline: 2px solid red; }')).toBe(
      '.grid :focus-visible{outline:2px solid red}',
    );
    expect(minifyCss('.icon { vertical-align: -0.125em; }')).toBe('.icon{vertical-align:-0.125em}');
    expect(minifyCss('@media (prefers-reduced-motion: reduce) { .bar { animation: none; } }')).toBe(
      '@media (prefers-reduced-motion:reduce){.bar{animation:none}}',
    );
  });
});
