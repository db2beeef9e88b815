/**
 * Reading IP addresses as numbers, without Node's modules (the renderer checks a remote's address
 * too): IPv6 as its eight 16-bit groups, and the IPv4 address an IPv6 one may carry. Used by the
 * webhook target guard (electron/api/webhooks/target-guard.ts) and by the addresses a replica
 * never syncs with (`isLinkLocalOrMetadata`).
 */

/** The four octets of a dotted IPv4 address, or undefined for anything else. */
export function ipv4Octets(address: string): [number, number, number, number] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
  if (!match) return undefined;
  const octets = match.slice(1).map(Number) as [number, number, number, number];
  return octets.every((o) => o <= 255) ? octets : undefined;
}

/** The eight 16-bit groups of an IPv6 address (`::` and a trailing dotted quad expanded), or undefined. */
export function ipv6Groups(address: string): number[] | undefined {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const parts = dotted[1]!.split('.').map(Number);
    text =
      text.slice(0, -dotted[1]!.length) + `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  // split always gives a first part; a second only when the text has a '::'.
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(Math.max(fill, 0)).fill('0'), ...right].map((g) =>
    /^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN,
  );
  return groups.length === 8 && groups.every((g) => Number.isInteger(g)) ? groups : undefined;
}

function ipv4From(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16). */
export function embeddedIpv4(groups: readonly number[]): string | undefined {
  // Callers pass the eight groups of a parsed IPv6 address.
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  // Mapped (::ffff:a.b.c.d) and the deprecated compatible form (::a.b.c.d).
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0)) return ipv4From(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4From(g6, g7);
  if (g0 === 0x2002) return ipv4From(g1, g2);
  return undefined;
}

/**
 * Names of cloud instance metadata services (Google Cloud, Amazon EC2): they answer with the
 * machine's credentials to whoever on it asks.
 */
const metadataNames = new Set(['metadata', 'metadata.google.internal', 'metadata.goog', 'instance-data', 'instance-data.ec2.internal']);

function isLinkLocalOrMetadataIpv4(octets: readonly number[]): boolean {
  const [a, b, c, d] = octets;
  // 169.254.0.0/16: link-local, where most clouds answer metadata (169.254.169.254);
  // 100.100.100.200: Alibaba Cloud's metadata.
  return (a === 169 && b === 254) || (a === 100 && b === 100 && c === 100 && d === 200);
}

/**
 * True for a host that is never a Planner server a replica may sync with: a link-local address
 * (169.254.0.0/16, fe80::/10, also inside an IPv6 address), or a cloud metadata service, by
 * name or address (fd00:ec2::254 is EC2's over IPv6). A name is read as a URL gives it (lower
 * case, IPv6 in brackets); a final dot is ignored.
 */
export function isLinkLocalOrMetadata(host: string): boolean {
  const bare = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '')
    .replace(/\.$/, '');
  if (metadataNames.has(bare)) return true;
  const v4 = ipv4Octets(bare);
  if (v4) return isLinkLocalOrMetadataIpv4(v4);
  const groups = ipv6Groups(bare);
  if (!groups) return false;
  if ((groups[0]! & 0xffc0) === 0xfe80) return true;
  if (groups.join(':') === [0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254].join(':')) return true;
  const carried = embeddedIpv4(groups);
  return carried !== undefined && isLinkLocalOrMetadataIpv4(ipv4Octets(carried)!);
}
