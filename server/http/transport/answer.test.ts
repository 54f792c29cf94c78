// Problem answers: the same bytes whether made anew or kept, and a bounded memo of recent ones.
import { expect, it } from 'vitest';
import { problem, ProblemBodies } from './answer.ts';

it('a kept problem is the same answer as one made anew', () => {
  const bodies = new ProblemBodies();
  const made = problem('rate_limited', 'retry in 3 s.', { 'retry-after': '3' });
  expect(bodies.answer('rate_limited', 'retry in 3 s.', { 'retry-after': '3' })).toEqual(made);
  expect(bodies.answer('rate_limited', 'retry in 3 s.', { 'retry-after': '3' })).toEqual(made);
  expect(JSON.parse(made.body as string)).toMatchObject({ status: 429, code: 'rate_limited' });
});

it('a flood of distinct details keeps 256 bodies, the one in use among them', () => {
  const bodies = new ProblemBodies();
  const used = bodies.body('not_found', 'in use');
  for (let i = 0; i < 1000; i++) {
    bodies.body('invalid_parameter', `min_area: ${i}`);
    if (i % 100 === 0) expect(bodies.body('not_found', 'in use')).toBe(used);
  }
  expect(bodies.recent.size).toBe(256);
  expect(bodies.recent.get('not_found in use')).toBe(used);
  expect(bodies.recent.get('invalid_parameter min_area: 0')).toBeUndefined();
});
