// The key form's rules, as the panel's server applies them and its script checks them (the browser tests run them there).
import { describe, expect, it } from 'vitest';
import {
  formatRate,
  KeyLimitError,
  MAX_BURST,
  MAX_RATE_PER_S,
  parseBurst,
  parseLabel,
  parseOrigin,
  parseRate,
  readKeyForm,
} from './key-limits.ts';

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

  it('caps a rate at 200000/s, whose 5-second burst is the largest burst a key may have', () => {
    expect(parseRate('200000/s')).toBe(MAX_RATE_PER_S);
    expect(parseRate('12000000/min')).toBe(MAX_RATE_PER_S);
    expect(MAX_RATE_PER_S * 5).toBe(MAX_BURST);
    for (const rate of ['200001/s', '99999999/s', '12000001/min'])
      expect(() => parseRate(rate), rate).toThrow('must be at most 200000/s');
    expect(() => parseBurst(String(MAX_BURST + 1))).toThrow(`from 1 to ${MAX_BURST}`);
  });

  it('refuses a label with a control character or over 200 characters, naming the rule', () => {
    expect(readKeyForm({ label: 'Evil\u001b[2J\nfake row', origins: '', rate: '' })).toEqual({
      ok: false,
      problems: { label: 'must be one line without control characters (U+001B at character 5)' },
    });
    expect(() => parseLabel('\u009b31m')).toThrow('U+009B');
    expect(() => parseLabel('x'.repeat(201))).toThrow('at most 200 characters');
    expect(parseLabel('  Broker—Kraków  ')).toBe('Broker—Kraków');
  });

  it('counts a label in characters as a person does: an emoji is one', () => {
    expect(parseLabel('📦'.repeat(200))).toBe('📦'.repeat(200));
    expect(() => parseLabel('📦'.repeat(201))).toThrow(KeyLimitError);
    expect(readKeyForm({ label: 'Łódź 📦'.repeat(28), origins: '', rate: '' })).toMatchObject({ ok: true });
  });

  it('writes a rate that parseRate reads back exactly, so a saved form keeps it', () => {
    for (const typed of ['20/s', '600/min', '1000/h', '1.2345/s', '1.5/h', '0.1/s', '2.5/min', '0.0001/h'])
      expect(parseRate(formatRate(parseRate(typed)))).toBe(parseRate(typed));
    expect([20, 1 / 60, 0.5, 1000 / 3600].map(formatRate)).toEqual(['20/s', '1/min', '30/min', '1000/h']);
    expect(formatRate(parseRate('1.2345/s'))).toBe('1.2345/s');
    expect(formatRate(parseRate('1.5/h'))).toBe('1.5/h');
    expect(parseOrigin('http://127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
  });

  it('refuses a host no site has, since origins are matched exactly: a wildcard, or what a host cannot hold', () => {
    for (const origin of [
      'https://*.example',
      'https://*',
      'https://shop.*.example',
      'https://a%2A.example',
      'https://a$b.example',
    ])
      expect(() => parseOrigin(origin), origin).toThrow(KeyLimitError);
    expect(() => parseOrigin('https://*.example')).toThrow('"https://*.example" is not an origin');
    expect(readKeyForm({ label: 'x', origins: 'https://*.partner.example', rate: '' })).toMatchObject({
      ok: false,
      problems: { origins: expect.stringContaining('https://*.partner.example') },
    });
    const taken = ['https://a-b.example', 'https://xn--bcher-kva.example', 'http://[::1]:8080', 'http://10.0.0.1'];
    for (const origin of taken) expect(parseOrigin(origin)).toBe(origin);
  });
});
