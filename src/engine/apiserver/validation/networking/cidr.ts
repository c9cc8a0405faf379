import { isIPv4, parseCIDRSloppy } from '../../../api/ip';

type IPNet = NonNullable<ReturnType<typeof parseCIDRSloppy>>;

/** 16-byte prefix length: an IPv4-written prefix counts the 96 bits of the IPv4-mapped form. */
function prefix16(net: IPNet): number {
  return net.written4 ? net.bits + 96 : net.bits;
}

/**
 * net.IPNet.Contains(inner.IP), on the 16-byte forms Go normalises to: an IPv4 address is never
 * inside an IPv6 network and vice versa.
 */
export function cidrContains(outer: IPNet, inner: IPNet): boolean {
  if (isIPv4(outer.network) !== isIPv4(inner.network)) return false;
  const bits = prefix16(outer);
  for (let i = 0; i < 16; i++) {
    const bitsHere = Math.max(0, Math.min(8, bits - i * 8));
    const mask = (0xff << (8 - bitsHere)) & 0xff;
    if (((outer.network[i] ?? 0) & mask) !== ((inner.network[i] ?? 0) & mask)) return false;
  }
  return true;
}

/** netutils.IsDualStackCIDRStrings: exactly one IPv4 and one IPv6 CIDR. */
export function isDualStackCIDRs(cidrs: string[]): boolean {
  const nets = cidrs.map(parseCIDRSloppy);
  if (nets.some((n) => n === undefined)) return false;
  const v4 = nets.filter((n) => n && isIPv4(n.network)).length;
  return v4 > 0 && v4 < nets.length;
}
