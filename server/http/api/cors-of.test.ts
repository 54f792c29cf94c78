// A key's CORS header sets: its ref named, and frozen, since every answer of the key reads them.
import { describe, expect, it } from 'vitest';
import { corsOf } from './api.ts';

describe('corsOf', () => {
  it('names the ref in both sets and freezes them', () => {
    const cors = corsOf('https://partner.example', 'odra-movers');
    for (const set of [cors.headers, cors.coded]) {
      expect(set['x-partner-ref']).toBe('odra-movers');
      expect(set['access-control-allow-origin']).toBe('https://partner.example');
      expect(Object.isFrozen(set)).toBe(true);
    }
    expect(cors.coded.vary).not.toBe(cors.headers.vary);
  });
});
