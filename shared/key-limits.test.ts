// The key form's rules, as the panel's server applies them and its script checks them (the browser tests run them there).
import { describe, expect, it } from 'vitest';
import { formatRate, parseOrigin, parseRate, readKeyForm } from './key-limits.ts';

describe('readKeyForm', () => {
  it('reads a label, origins one per line or comma-separated, and a rate', () => {
    expect(
      readKeyForm({ label: ' Broker ', origins: 'https://a.example\nhttps://b.example:8443/, ', rate: '600/min' }),
    ).toEqual({
      ok: true,
      limits: {
        label: 'Broker',
        allowed_origins: ['https://a.example', 'https://b.example:8443'],
        rate_per_s: 10,
        burst: null,
      },
    });
    expect(readKeyForm({ label: 'b', origins: '', rate: '10/s', burst: ' 50 ' })).toMatchObject({
      ok: true,
      limits: { rate_per_s: 10, burst: 50 },
    });
    expect(readKeyForm({ label: '', origins: '', rate: ' ' })).toEqual({
      ok: true,
      limits: { label: '', allowed_origins: [], rate_per_s: null, burst: null },
    });
  });

  it('names each field that breaks a rule', () => {
    const read = readKeyForm({ label: 'x'.repeat(201), origins: 'https://a.example/path', rate: 'fast' });
    expect(read.ok).toBe(false);
    expect(Object.keys(read.ok ? {} : read.problems).sort()).toEqual(['label', 'origins', 'rate']);
    expect(readKeyForm({ label: 'x'.repeat(200), origins: 'ftp://a.example', rate: '0/s' })).toMatchObject({
      ok: false,
      problems: { origins: expect.stringContaining('ftp://a.example'), rate: 'must be more than 0' },
    });
  });

  it('reads back what formatRate writes', () => {
    for (const rate of [20, 10, 1 / 60, 0.5, 1000 / 3600]) expect(parseRate(formatRate(rate))).toBeCloseTo(rate, 9);
    expect(parseOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
  });
});
