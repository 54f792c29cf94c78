// The rental pages' refusals: a person's page and a program's Retry-After, each rendered once and kept within a cap.
import { expect, it } from 'vitest';
import { busyPage, RefusalPages } from './rental-page.ts';

it('says when to come back, in the page and in Retry-After, and never lets a page be stored', () => {
  const refusals = new RefusalPages();
  const tooMany = refusals.tooMany(7);
  expect(tooMany.status).toBe(429);
  expect(tooMany.headers).toMatchObject({ 'retry-after': '7', 'cache-control': 'no-store' });
  expect(String(tooMany.body)).toContain('try again in 7 seconds');
  expect(refusals.unavailable(5)).toMatchObject({ status: 503, headers: { 'retry-after': '5' } });
  expect(busyPage()).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
});

it('a flood of distinct waits keeps 64 pages, the one in use among them', () => {
  const refusals = new RefusalPages();
  const used = refusals.tooMany(1).body;
  for (let s = 2; s < 300; s++) {
    refusals.unavailable(s);
    if (s % 16 === 0) expect(refusals.tooMany(1).body).toBe(used);
  }
  expect(refusals.bodies.size).toBe(64);
  expect(refusals.bodies.get('429 1')).toBe(used);
  expect(refusals.bodies.get('503 2')).toBeUndefined();
});
