// Source addresses: CIDR lists (a device's allowed sources, the trusted proxies) and the client
// address of a request that came through a trusted proxy. Pure; `node:net` does the matching.
import net from 'node:net';

/** Entries a list may hold (a device's allow-list, the trusted proxies). */
export const MAX_CIDRS = 32;

/** `10.1.2.0/24`, `2001:db8::/32`, or a bare address (a /32 or /128). Null when it is neither. */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, extra] = text.trim().split('/');
  if (extra !== undefined) return null;
  const version = net.isIP(address);
  if (version === 0) return null;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return null;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** The entries of `list` that are not CIDRs (empty: the list is good). */
export function invalidCidrs(list: readonly string[]): string[] {
  return list.filter((entry) => parseCidr(entry) === null);
}

/** A matcher for a list of CIDRs (entries that do not parse are ignored: they are validated on input). */
export function cidrMatcher(list: readonly string[]): (address: string) => boolean {
  const blocks = new net.BlockList();
  for (const entry of list) {
    const cidr = parseCidr(entry);
    if (cidr) blocks.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  return (address: string) => {
    const bare = address.startsWith('::ffff:') && net.isIPv4(address.slice(7)) ? address.slice(7) : address;
    const version = net.isIP(bare);
    return version !== 0 && blocks.check(bare, version === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The client address of a request: the socket's peer, unless that peer is a trusted proxy, in
 * which case the nearest `X-Forwarded-For` hop that is not itself a trusted proxy (hops further left
 * were written by the client and prove nothing). Without trusted proxies the header is ignored.
 */
export function clientAddress(peer: string, forwardedFor: string | undefined, trustedProxy: ((address: string) => boolean) | null): string {
  const bare = peer.startsWith('::ffff:') ? peer.slice(7) : peer;
  if (!trustedProxy || !forwardedFor || !trustedProxy(bare)) return bare;
  const hops = forwardedFor
    .split(',')
    .map((hop) => hop.trim())
    .filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!.startsWith('::ffff:') ? hops[i]!.slice(7) : hops[i]!;
    if (net.isIP(hop) === 0) return bare;
    if (!trustedProxy(hop)) return hop;
  }
  // Every hop is a trusted proxy: the first of them received the request from the client.
  return hops.length > 0 && net.isIP(hops[0]!) !== 0 ? hops[0]! : bare;
}
