/**
 * Which addresses a remote instance refuses to post webhooks to: loopback, private, link-local,
 * shared (CGNAT), multicast, documentation and other special-use ranges, IPv4 and IPv6 (also
 * IPv4 hidden in IPv6: mapped, translated, NAT64 with the well-known and the local-use prefix,
 * 6to4). Otherwise anyone who may create a webhook could make the server call into its own
 * network (SSRF).
 *
 * The check runs on the addresses the connection actually uses (a `lookup` for the socket),
 * so a name that resolves to a public address when validated and a private one when
 * connecting (DNS rebinding) is still refused.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { embeddedIpv4, ipv6Groups } from '../../../shared/ip-address.js';

const blocked = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4-translated (RFC 2765, ::ffff:0:a.b.c.d): an IPv4 address on a translating network.
  ['::ffff:0:0:0', 96],
  // Local-use NAT64 (RFC 8215): the operator's own IPv4 network, wherever the prefix puts it.
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  blocked.addSubnet(network, prefix, 'ipv6');
}

/** True for an address webhooks may not reach unless the instance allows private targets. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse rather than guess
  if (blocked.check(bare, 'ipv6')) return true;
  const groups = ipv6Groups(bare);
  if (!groups) return true;
  const v4 = embeddedIpv4(groups);
  return v4 !== undefined && blocked.check(v4, 'ipv4');
}

export class PrivateTargetError extends Error {
  constructor(host: string, address: string) {
    super(
      `refused: ${host} is ${host === address ? 'a' : `resolved to ${address}, a`} loopback, private or otherwise reserved address; ` +
        'this instance does not deliver webhooks there (start it with --allow-private-webhooks to allow it)',
    );
  }
}

/** A socket `lookup` that resolves as usual and then refuses private addresses. */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 0);
    // With `all: true` dns.lookup answers a list, which its overloaded type does not say here.
    const list = addresses as unknown as LookupAddress[];
    const refused = list.find((a) => isPrivateAddress(a.address));
    // The callback's type wants an ErrnoException; the socket only reads its message.
    if (refused) return callback(new PrivateTargetError(hostname, refused.address) as NodeJS.ErrnoException, '', 0);
    // A caller that asked for `all` gets the list form of the callback (net's lookup contract).
    if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
    const first = list[0];
    // As above: an ErrnoException by type, read for its message.
    if (!first) return callback(new Error(`${hostname} has no address`) as NodeJS.ErrnoException, '', 0);
    return callback(null, first.address, first.family);
  });
};
