// Which addresses a webhook may reach: public unicast only; loopback, private, link-local, shared, documentation,
// benchmarking and reserved ranges are refused, and so is every IPv6 form that embeds an IPv4 address.
import { describe, expect, it } from 'vitest';
import { checkEndpointUrl, isPrivateAddress } from './address.ts';

const REFUSED = [
  ['0.0.0.0', 'this network'],
  ['10.1.2.3', 'private'],
  ['100.64.0.1', 'CGNAT'],
  ['127.0.0.1', 'loopback'],
  ['169.254.169.254', 'cloud metadata'],
  ['172.16.0.1', 'private'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.10', 'documentation (TEST-NET-1)'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['192.168.1.1', 'private'],
  ['198.18.0.1', 'benchmarking'],
  ['198.51.100.7', 'documentation (TEST-NET-2)'],
  ['203.0.113.9', 'documentation (TEST-NET-3)'],
  ['224.0.0.1', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::127.0.0.1', 'IPv4-compatible'],
  ['::8.8.8.8', 'IPv4-compatible'],
  ['::ffff:127.0.0.1', 'IPv4-mapped'],
  ['::ffff:7f00:1', 'IPv4-mapped, in hex'],
  ['::ffff:8.8.8.8', 'IPv4-mapped, of a public address'],
  ['::ffff:0:7f00:1', 'IPv4-translated'],
  ['64:ff9b::7f00:1', 'NAT64'],
  ['64:ff9b:1::a00:1', 'local-use NAT64'],
  ['100::1', 'discard-only'],
  ['2001::7f00:1', 'Teredo'],
  ['2001:2::1', 'benchmarking'],
  ['2001:db8::1', 'documentation'],
  ['2002:7f00:1::', '6to4 of 127.0.0.1'],
  ['2002:808:808::1', '6to4 of a public address'],
  ['3fff::1', 'documentation'],
  ['5f00::1', 'SRv6 SIDs'],
  ['fc00::1', 'unique local'],
  ['fd00:ec2::254', 'cloud metadata'],
  ['fe80::1', 'link-local'],
  ['fec0::1', 'site-local'],
  ['ff02::1', 'multicast'],
  ['not-an-address', 'not an address'],
];

const ALLOWED = ['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'];

describe('webhook addresses', () => {
  it.each(REFUSED)('refuses %s (%s)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(ALLOWED)('allows the public address %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('refuses an endpoint URL with such an address, unless private addresses are allowed', () => {
    for (const url of ['https://[2002:7f00:1::]/h', 'https://[::ffff:7f00:1]/h', 'https://203.0.113.9/h']) {
      expect(() => checkEndpointUrl(url, false)).toThrow(expect.objectContaining({ code: 'invalid_url' }));
      expect(checkEndpointUrl(url, true)).toBe(new URL(url).href);
    }
    expect(checkEndpointUrl('https://[2606:4700:4700::1111]/h', false)).toBe('https://[2606:4700:4700::1111]/h');
  });

  it('holds the URL as stored and sent, percent-encoded, to its 2048 characters', () => {
    const base = 'https://partner.example/';
    // 'ł' is 6 characters once percent-encoded (%C5%82): 400 of them are 424 typed, 2424 sent.
    const typed = base + 'ł'.repeat(400);
    expect(typed.length).toBeLessThan(2048);
    expect(() => checkEndpointUrl(typed, false)).toThrow(expect.objectContaining({ code: 'invalid_url' }));
    const longest = base + 'ł'.repeat(Math.floor((2048 - base.length) / 6)) + 'a'.repeat((2048 - base.length) % 6);
    expect(checkEndpointUrl(longest, false)).toHaveLength(2048);
    expect(() => checkEndpointUrl(longest + 'a', false)).toThrow(expect.objectContaining({ code: 'invalid_url' }));
  });
});
