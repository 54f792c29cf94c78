import { describe, expect, test } from 'vitest';
import { clientAddressOf, parseTrustedProxies } from './client-address.ts';

describe('client address behind a proxy', () => {
  const trusted = new Set(['127.0.0.1', '10.0.0.2']);

  test('the peer itself when no proxy is trusted, or the peer is not one', () => {
    expect(clientAddressOf('203.0.113.9', '198.51.100.1', new Set())).toBe('203.0.113.9');
    expect(clientAddressOf('203.0.113.9', '198.51.100.1', trusted)).toBe('203.0.113.9');
  });

  test('the rightmost hop a trusted proxy did not add; what the client wrote further left is ignored', () => {
    expect(clientAddressOf('127.0.0.1', '198.51.100.1', trusted)).toBe('198.51.100.1');
    expect(clientAddressOf('127.0.0.1', '1.2.3.4, 198.51.100.1, 10.0.0.2', trusted)).toBe('198.51.100.1');
    expect(clientAddressOf('127.0.0.1', ['1.2.3.4', '198.51.100.7'], trusted)).toBe('198.51.100.7');
  });

  test('a missing, malformed or all-proxy list falls back to the peer', () => {
    expect(clientAddressOf('127.0.0.1', undefined, trusted)).toBe('127.0.0.1');
    expect(clientAddressOf('127.0.0.1', 'not-an-ip', trusted)).toBe('127.0.0.1');
    expect(clientAddressOf('127.0.0.1', '10.0.0.2', trusted)).toBe('127.0.0.1');
    // Empty hops at either end: the rightmost is malformed; the leftmost is only reached past trusted proxies.
    expect(clientAddressOf('127.0.0.1', '198.51.100.1,', trusted)).toBe('127.0.0.1');
    expect(clientAddressOf('127.0.0.1', ' , 198.51.100.1', trusted)).toBe('198.51.100.1');
    expect(clientAddressOf('127.0.0.1', ',10.0.0.2', trusted)).toBe('127.0.0.1');
  });

  test('TRUST_PROXY is a comma-separated list of IP addresses', () => {
    expect(parseTrustedProxies(undefined)).toEqual([]);
    expect(parseTrustedProxies(' 127.0.0.1, ::1 ')).toEqual(['127.0.0.1', '::1']);
    expect(() => parseTrustedProxies('127.0.0.1,proxy.local')).toThrow(/"proxy.local" is not an IP address/);
  });
});
