// Which addresses a webhook may reach. With TIMEGATE_WEBHOOK_ALLOW_PRIVATE=false, private,
// loopback, link-local, CGNAT, multicast and reserved ranges are refused, in every IPv6 spelling
// too: at creation (literal IPs and the name's current DNS answers) and again at each delivery, on
// the address actually dialled.
import dns from 'node:dns/promises';
import net from 'node:net';

const blockedV4 = new net.BlockList();
for (const [prefix, bits] of [
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
] as const)
  blockedV4.addSubnet(prefix, bits, 'ipv4');

// IPv6 is decided by allow-list: only global unicast (2000::/3) may be dialled, minus the parts of
// it that are not ordinary hosts or that embed an IPv4 address a relay would forward to (so
// [2002:7f00:1::] cannot reach 127.0.0.1 through 6to4). Everything else (::, ::1, the IPv4-compatible
// ::/96 such as [::127.0.0.1], unique-local fc00::/7, link-local fe80::/10, the deprecated site-local
// fec0::/10, multicast, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, discard 100::/64) is outside 2000::/3.
// IPv4-mapped addresses (::ffff:a.b.c.d, in any spelling) are judged as the IPv4 address they are.
const globalV6 = new net.BlockList();
globalV6.addSubnet('2000::', 3, 'ipv6');
const blockedGlobalV6 = new net.BlockList();
for (const [prefix, bits] of [
  ['2001::', 23], // IETF protocol assignments: Teredo 2001::/32 (embeds an IPv4), benchmarking, ORCHID
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: embeds an IPv4 address
  ['3ffe::', 16], // the retired 6bone
  ['3fff::', 20], // documentation (RFC 9637)
  ['5f00::', 16], // SRv6 segment identifiers
] as const)
  blockedGlobalV6.addSubnet(prefix, bits, 'ipv6');

/** The 16 bytes of an IPv6 address in any textual form (`::`, embedded dotted quad), or null. */
function ipv6Bytes(address: string): number[] | null {
  if (net.isIP(address) !== 6) return null;
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? (text.split('::') as [string, string]) : [text, null];
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = groups(head);
  const right = tail === null ? [] : groups(tail);
  const all = tail === null ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blockedV4.check(address, 'ipv4');
  if (family !== 6) return true;
  const bytes = ipv6Bytes(address);
  if (!bytes) return true;
  // ::ffff:0:0/96: an IPv4 address written as IPv6; judged as that IPv4 address.
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return blockedV4.check(bytes.slice(12).join('.'), 'ipv4');
  return !globalV6.check(address, 'ipv6') || blockedGlobalV6.check(address, 'ipv6');
}

export class AddressRefused extends Error {}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** The URL's host without IPv6 brackets. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/**
 * The address to dial for a host: every DNS answer is checked (one private answer refuses the
 * name, so a rebinding name cannot slip through on a second lookup), then the first is used.
 */
export async function resolveTarget(host: string, allowPrivate: boolean): Promise<ResolvedAddress> {
  const literal = net.isIP(host);
  const answers: ResolvedAddress[] = literal
    ? [{ address: host, family: literal as 4 | 6 }]
    : (await dns.lookup(host, { all: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  if (answers.length === 0) throw new AddressRefused(`${host} has no address`);
  if (!allowPrivate) {
    const refused = answers.find((a) => isPrivateAddress(a.address));
    if (refused)
      throw new AddressRefused(`${host} resolves to ${refused.address}, a private, loopback or link-local address (TIMEGATE_WEBHOOK_ALLOW_PRIVATE is off)`);
  }
  return answers[0]!;
}
