// A memo keeps at most its cap, the least recently used out first, whatever the order entries come and go in.
import { expect, it } from 'vitest';
import { memo, memoBy } from './memo.ts';

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

it('a memo that makes what it lacks makes each value once while it is kept, and again once it has left', () => {
  const made: string[] = [];
  const kept = memoBy<string, string, number>(2, (key, times) => (made.push(key), key.repeat(times)));
  expect(kept.memo('a', { context: 2 })).toBe('aa');
  expect(kept.memo('a', { context: 3 })).toBe('aa');
  kept.memo('b', { context: 1 });
  kept.memo('c', { context: 1 });
  expect(kept.memo('a', { context: 3 })).toBe('aaa');
  expect(made).toEqual(['a', 'b', 'c', 'a']);
  expect(kept.size).toBe(2);
});
