/**
 * Which proxies are trusted (`--trust-proxy`), and the key a client's limits count under
 * (electron/api/client-address.ts; docs/deployment.md "Reverse proxy", audit 2 I2).
 */
import { describe, expect, it } from 'vitest';
import { limitKeyOf, TrustedProxies, TrustedProxiesError } from '../../electron/api/client-address.js';

describe('the trusted proxies', () => {
  it('reads addresses and CIDR ranges, IPv4 and IPv6, between commas or spaces', () => {
    const proxies = TrustedProxies.parse(' 127.0.0.1, 10.0.0.0/8  fd00::/8,2001:db8::7 ');
    expect(proxies.entries).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8', '2001:db8::7']);
    for (const address of ['127.0.0.1', '10.200.3.4', '::ffff:10.1.2.3', 'fd12:3456::1', '2001:db8::7'])
      expect(proxies.trusts(address), address).toBe(true);
    for (const address of ['127.0.0.2', '11.0.0.1', '2001:db8::8', 'fe80::1', 'proxy.internal', '', undefined])
      expect(proxies.trusts(address), address).toBe(false);
  });

  it('refuses anything else, naming the entry', () => {
    const refusal = (text: string) => {
      try {
        TrustedProxies.parse(text);
      } catch (error) {
        expect(error).toBeInstanceOf(TrustedProxiesError);
        return (error as Error).message;
      }
      throw new Error(`"${text}" was accepted`);
    };
    expect(refusal('')).toBe('name at least one proxy address or CIDR range');
    expect(refusal('10.0.0.1, localhost')).toBe('"localhost" is not an IP address or a CIDR range (such as 10.0.0.0/8 or fd00::/8)');
    expect(refusal('10.0.0.1:8080')).toContain('"10.0.0.1:8080" is not an IP address');
    expect(refusal('10.0.0.0/33')).toBe('"10.0.0.0/33" has a prefix length that is not 0 to 32');
    expect(refusal('fd00::/129')).toBe('"fd00::/129" has a prefix length that is not 0 to 128');
    expect(refusal('10.0.0.0/x')).toContain('prefix length');
    expect(refusal('::ffff:10.0.0.0/104')).toBe('"::ffff:10.0.0.0/104" is an IPv4-mapped range: write it as an IPv4 range');
  });
});

describe('the key a client counts under', () => {
  it('is an IPv4 address as it is, also when it comes IPv4-mapped', () => {
    expect(limitKeyOf('198.51.100.7')).toBe('198.51.100.7');
    expect(limitKeyOf('::ffff:198.51.100.7')).toBe('198.51.100.7');
    // A connection already closed has no address in Node.
    expect(limitKeyOf(undefined)).toBe('unknown');
  });

  it('is the /64 of an IPv6 address, however it is written', () => {
    const key = '2001:db8:1:2::/64';
    for (const address of ['2001:db8:1:2::1', '2001:0DB8:0001:0002:ffff:ffff:ffff:fffe', '2001:db8:1:2:0:0:0:0', '2001:db8:1:2::10%eth0'])
      expect(limitKeyOf(address), address).toBe(key);
    expect(limitKeyOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
    expect(limitKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(limitKeyOf('::1')).toBe('0:0:0:0::/64');
    expect(limitKeyOf('2001:db8:1:2::192.0.2.1')).toBe(key);
  });
});
