// Request ids: UUID-shaped, and the counter behind them carries across the 256-id blocks they are made in.
import { expect, it } from 'vitest';
import { nextRequestId } from './request-id.ts';

it('counts up by one in hex across block boundaries, under one random prefix', () => {
  const ids = Array.from({ length: 1000 }, () => nextRequestId());
  for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(new Set(ids.map((id) => id.slice(0, 24))).size).toBe(1);
  const counters = ids.map((id) => parseInt(id.slice(24), 16));
  // 1000 ids cross at least three 256-id blocks: each id is the one before it plus one.
  counters.slice(1).forEach((c, i) => expect(c).toBe(counters[i]! + 1));
});
