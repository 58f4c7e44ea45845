// Which addresses a webhook may reach. With TIMEGATE_WEBHOOK_ALLOW_PRIVATE=false, private,
// loopback, link-local, CGNAT, multicast and reserved ranges are refused: at creation (literal IPs
// and the name's current DNS answers) and again at each delivery, on the address actually dialled.
import dns from 'node:dns/promises';
import net from 'node:net';

const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24],
  ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['2001:db8::', 32], ['64:ff9b::', 96]] as const) {
  blocked.addSubnet(prefix, bits, 'ipv6');
}

export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return blocked.check(mapped[1]!, 'ipv4');
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) return blocked.check(address, 'ipv6');
  return true;
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
  const answers: ResolvedAddress[] = literal ? [{ address: host, family: literal as 4 | 6 }] : (await dns.lookup(host, { all: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
  if (answers.length === 0) throw new AddressRefused(`${host} has no address`);
  if (!allowPrivate) {
    const refused = answers.find((a) => isPrivateAddress(a.address));
    if (refused) throw new AddressRefused(`${host} resolves to ${refused.address}, a private, loopback or link-local address (TIMEGATE_WEBHOOK_ALLOW_PRIVATE is off)`);
  }
  return answers[0]!;
}
