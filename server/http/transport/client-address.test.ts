// The client's address behind TRUST_PROXY's addresses, ranges and names, and the refusal of a bad entry.
import { describe, expect, test } from 'vitest';
import { ClientAddresses, clientAddressOf, parseTrustedProxies, trustedProxiesOf } from './client-address.ts';

const from = (peer: string, forwardedFor?: string) => ({
  socket: { remoteAddress: peer },
  headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
});

describe('client address behind a proxy', () => {
  const trusted = trustedProxiesOf(parseTrustedProxies('127.0.0.1, 10.0.0.2'));

  test('the peer itself when no proxy is trusted, or the peer is not one', () => {
    expect(clientAddressOf(from('203.0.113.9', '198.51.100.1'), trustedProxiesOf([]))).toBe('203.0.113.9');
    expect(clientAddressOf(from('203.0.113.9', '198.51.100.1'), trusted)).toBe('203.0.113.9');
  });

  test('the rightmost hop a trusted proxy did not add; what the client wrote further left is ignored', () => {
    expect(clientAddressOf(from('127.0.0.1', '198.51.100.1'), trusted)).toBe('198.51.100.1');
    expect(clientAddressOf(from('127.0.0.1', '1.2.3.4, 198.51.100.1, 10.0.0.2'), trusted)).toBe('198.51.100.1');
  });

  test('the peer for no header or a malformed hop; empty hops are skipped', () => {
    expect(clientAddressOf(from('127.0.0.1'), trusted)).toBe('127.0.0.1');
    expect(clientAddressOf(from('127.0.0.1', 'not-an-ip'), trusted)).toBe('127.0.0.1');
    expect(clientAddressOf(from('127.0.0.1', '198.51.100.1,'), trusted)).toBe('198.51.100.1');
    expect(clientAddressOf(from('127.0.0.1', ' , 198.51.100.1'), trusted)).toBe('198.51.100.1');
  });

  test('every hop trusted: the furthest, the proxy the request came in through', () => {
    expect(clientAddressOf(from('127.0.0.1', '10.0.0.2'), trusted)).toBe('10.0.0.2');
  });

  test('a CIDR range trusts each address in it and none outside it', () => {
    const range = trustedProxiesOf(parseTrustedProxies('10.1.0.0/16'));
    expect(clientAddressOf(from('10.1.200.7', '198.51.100.1'), range)).toBe('198.51.100.1');
    // Outside the range, a spoofed X-Forwarded-For is ignored.
    expect(clientAddressOf(from('10.2.0.1', '198.51.100.1'), range)).toBe('10.2.0.1');
    // The same range reaches an IPv4 address as an IPv6 socket reports it.
    expect(clientAddressOf(from('::ffff:10.1.0.9', '198.51.100.1'), range)).toBe('198.51.100.1');
  });

  test('a chain of two proxies, one in a range, one by name', () => {
    const chain = trustedProxiesOf(parseTrustedProxies('loopback, 172.16.0.0/12'));
    expect(clientAddressOf(from('::1', '6.6.6.6, 198.51.100.1, 172.16.4.4'), chain)).toBe('198.51.100.1');
    expect(clientAddressOf(from('127.0.0.1', '6.6.6.6, 172.31.0.1'), chain)).toBe('6.6.6.6');
  });
});

describe('TRUST_PROXY', () => {
  test('is a comma-separated list of addresses, CIDR ranges and names', () => {
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies(' 127.0.0.1, ::1 ,10.0.0.0/8, fd00::/8, uniquelocal ')).toEqual([
      '127.0.0.1',
      '::1',
      '10.0.0.0/8',
      'fd00::/8',
      'uniquelocal',
    ]);
  });

  test('names its first bad entry', () => {
    expect(() => parseTrustedProxies('127.0.0.1,proxy.local')).toThrow(/^"proxy.local" is not an IP address/);
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(/^"10.0.0.0\/33" is not/);
    expect(() => parseTrustedProxies('127.0.0.1,,::1')).toThrow(/^"" is not/);
  });
});

describe('client addresses remembered', () => {
  const trusted = trustedProxiesOf(parseTrustedProxies('127.0.0.1'));

  test('the same answers as clientAddressOf, for a peer with and without a forwarded header', () => {
    const addresses = new ClientAddresses(trusted);
    const cases = [from('127.0.0.1', '198.51.100.1'), from('203.0.113.9', '198.51.100.1'), from('127.0.0.1')];
    for (let round = 0; round < 2; round++)
      for (const req of cases) expect(addresses.of(req)).toBe(clientAddressOf(req, trusted));
  });

  test('another header from the same proxy is another client', () => {
    const addresses = new ClientAddresses(trusted);
    expect(addresses.of(from('127.0.0.1', '198.51.100.1'))).toBe('198.51.100.1');
    expect(addresses.of(from('127.0.0.1', '198.51.100.2'))).toBe('198.51.100.2');
    expect(addresses.of(from('127.0.0.1', `${'6.6.6.6, '.repeat(40)}198.51.100.3`))).toBe('198.51.100.3');
  });
});
