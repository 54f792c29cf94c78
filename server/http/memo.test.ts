// A memo keeps at most its cap, the least recently used out first, whatever the order entries come and go in.
import { expect, it } from 'vitest';
import { memo } from './memo.ts';

it('a flood past the cap keeps the cap and the entry in use', () => {
  const kept = memo<string, number>(5);
  kept.set('used', 0);
  for (let i = 0; i < 100; i++) {
    kept.set(`new ${i}`, i);
    if (i % 3 === 0) expect(kept.get('used')).toBe(0);
  }
  expect(kept.size).toBe(5);
  expect([...kept.keys()]).toEqual(['used', 'new 99', 'new 98', 'new 97', 'new 96']);
  kept.set('new 99', 99);
  expect(kept.size).toBe(5);
});
