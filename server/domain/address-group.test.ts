// Clients are counted by their IPv6 /64 or their IPv4 address.
import { describe, expect, it } from 'vitest';
import { addressGroupOf } from './address-group.ts';

describe('addressGroupOf', () => {
  it('groups the addresses of one IPv6 /64, however they are written', () => {
    const group = addressGroupOf('2001:db8:1:2::1');
    expect(group).toBe('2001:db8:1:2::/64');
    for (const same of [
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0:0:0:9',
      '2001:db8:1:2:a:b:1.2.3.4',
      '2001:db8:1:2::1%eth0',
    ])
      expect(addressGroupOf(same)).toBe(group);
    expect(addressGroupOf('2001:db8:1:3::1')).not.toBe(group);
    expect(addressGroupOf('::1')).toBe('0:0:0:0::/64');
  });

  it('keeps IPv4 addresses apart, an IPv4-mapped one as its IPv4, and text that is no address as it is', () => {
    expect(addressGroupOf('10.0.0.1')).toBe('10.0.0.1');
    expect(addressGroupOf('10.0.0.2')).not.toBe(addressGroupOf('10.0.0.1'));
    expect(addressGroupOf('::ffff:10.0.0.1')).toBe('10.0.0.1');
    // The same mapped address as a proxy may write it, in hexadecimal groups.
    expect(addressGroupOf('::ffff:c633:6409')).toBe('198.51.100.9');
    expect(addressGroupOf('::FFFF:198.51.100.9')).toBe('198.51.100.9');
    for (const odd of ['1:2:3', '1::2::3', 'g::1', '']) expect(addressGroupOf(odd)).toBe(odd);
  });
});
