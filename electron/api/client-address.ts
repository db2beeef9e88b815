/**
 * Who a request comes from, for the limits that count per client (docs/API.md
 * "Authentication", "Rate limits"; docs/deployment.md "Reverse proxy").
 *
 * Behind a reverse proxy every request arrives from the proxy's address; the client's own is
 * in `X-Forwarded-For`, which the proxy appends to. That header is believed only as far as the
 * proxies named with `--trust-proxy`: from the connection's address leftwards, the first
 * address that is not a trusted proxy is the client (Fastify's `trustProxy` walks it so when
 * given `TrustedProxies.trusts`). Whatever a client wrote into the header itself stands left
 * of its own address, which its proxy appended, so a forged part is never reached.
 *
 * Limits count an IPv6 client by its /64: one host is usually given a whole /64, and would
 * otherwise have 2^64 addresses to spread its attempts over.
 */
import { BlockList, isIP } from 'node:net';

/** `--trust-proxy` (or PLANNER_TRUST_PROXY) that names something other than addresses and ranges. */
export class TrustedProxiesError extends Error {}

const mappedIpv4 = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** An address without an IPv6 zone (`fe80::1%eth0`), an IPv4-mapped IPv6 address as its IPv4 address. */
function plainAddress(address: string): string {
  const unzoned = address.includes('%') ? address.slice(0, address.indexOf('%')) : address;
  return mappedIpv4.exec(unzoned)?.[1] ?? unzoned;
}

/** The proxies whose `X-Forwarded-For` is believed: addresses and CIDR ranges, IPv4 or IPv6. */
export class TrustedProxies {
  private readonly list = new BlockList();

  private constructor(readonly entries: readonly string[]) {
    for (const entry of entries) {
      // An entry checkedEntry passed: an address, or an address and a prefix.
      const [address, prefix] = entry.split('/') as [string, string | undefined];
      const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) this.list.addAddress(address, family);
      else this.list.addSubnet(address, Number(prefix), family);
    }
  }

  /**
   * Reads a list such as `127.0.0.1, 10.0.0.0/8 fd00::/8` (commas or spaces between entries);
   * throws TrustedProxiesError naming the first entry that is not an address or a range.
   */
  static parse(text: string): TrustedProxies {
    const entries = text.split(/[\s,]+/).filter((entry) => entry !== '');
    if (entries.length === 0) throw new TrustedProxiesError('name at least one proxy address or CIDR range');
    return new TrustedProxies(entries.map(checkedEntry));
  }

  /** Whether `address` is one of the trusted proxies (no address, of a connection already gone, is not). */
  trusts(address: string | undefined): boolean {
    if (!address) return false;
    const plain = plainAddress(address);
    const family = isIP(plain);
    return family !== 0 && this.list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  }
}

function checkedEntry(entry: string): string {
  const slash = entry.indexOf('/');
  const written = slash < 0 ? entry : entry.slice(0, slash);
  const refuse = (why: string) => new TrustedProxiesError(`"${entry}" ${why}`);
  if (written.includes('%') || isIP(written) === 0) throw refuse('is not an IP address or a CIDR range (such as 10.0.0.0/8 or fd00::/8)');
  const address = plainAddress(written);
  if (slash < 0) return address;
  if (address !== written) throw refuse('is an IPv4-mapped range: write it as an IPv4 range');
  const prefix = entry.slice(slash + 1);
  const bits = isIP(address) === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) throw refuse(`has a prefix length that is not 0 to ${bits}`);
  return `${address}/${Number(prefix)}`;
}

/** The eight 16-bit groups of an IPv6 address (which `isIP` accepted), as numbers. */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (dotted) {
    // An embedded IPv4 address (`64:ff9b::192.0.2.1`) is the last two groups.
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  // isIP accepted the address, so it has at most one `::`: a head, and a tail when there is one.
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = groups(tail);
  return tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/**
 * The key a client's limits count under: an IPv4 address as it is (an IPv4-mapped IPv6 one
 * too), an IPv6 address by its /64 (`2001:db8:0:1::/64`). Anything else, which only a
 * misconfigured proxy could forward, as it is; no address at all (Node has none for a
 * connection that has already closed) as `unknown`.
 */
export function limitKeyOf(address: string | undefined): string {
  if (!address) return 'unknown';
  const plain = plainAddress(address);
  const family = isIP(plain);
  if (family !== 6) return plain;
  return `${ipv6Groups(plain)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
