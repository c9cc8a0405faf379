/**
 * Pod IPs from the node's podCIDR, as the host-local IPAM plugin of a typical CNI hands them
 * out: the first address is the bridge gateway, addresses are given in order after the last one
 * given (wrapping around at the end of the range, skipping those in use), and the broadcast
 * address is never used. The same sequence of pods gets the same IPs. IPv4 only.
 */

export class IpAllocator {
  private readonly first: number;
  private readonly last: number;
  private readonly inUse = new Map<number, string>();
  private readonly byOwner = new Map<string, number>();
  private lastGiven: number;

  constructor(readonly cidr: string) {
    const range = ipv4Range(cidr);
    if (!range) throw new Error(`kubelet: podCIDR ${JSON.stringify(cidr)} is not an IPv4 CIDR`);
    // network+1 is the gateway; the range ends before the broadcast address.
    this.first = range.network + 2;
    this.last = range.broadcast - 1;
    this.lastGiven = this.first - 1;
  }

  /** host-local's range set as its errors print it: the gateway to the last address before broadcast. */
  get rangeSet(): string {
    return `${formatIPv4(this.first - 1)}-${formatIPv4(this.last)}`;
  }

  /** The gateway address (where probes and kubelet traffic come from, as seen by the pod). */
  get gateway(): string {
    return formatIPv4(this.first - 1);
  }

  /** The owner's address, allocating one if it has none; undefined when the range is full. */
  allocate(owner: string): string | undefined {
    const held = this.byOwner.get(owner);
    if (held !== undefined) return formatIPv4(held);
    const size = this.last - this.first + 1;
    for (let i = 1; i <= size; i++) {
      const candidate = this.first + ((this.lastGiven - this.first + i) % size);
      if (this.inUse.has(candidate)) continue;
      this.inUse.set(candidate, owner);
      this.byOwner.set(owner, candidate);
      this.lastGiven = candidate;
      return formatIPv4(candidate);
    }
    return undefined;
  }

  /** Marks an address as the owner's (a pod that already had it before the kubelet started). */
  reserve(owner: string, ip: string): void {
    const n = parseIPv4(ip);
    if (n === undefined || n < this.first || n > this.last || this.inUse.has(n)) return;
    this.inUse.set(n, owner);
    this.byOwner.set(owner, n);
  }

  release(owner: string): void {
    const ip = this.byOwner.get(owner);
    if (ip === undefined) return;
    this.byOwner.delete(owner);
    this.inUse.delete(ip);
  }
}

function parseIPv4(s: string): number | undefined {
  const parts = s.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((acc, p) => acc * 256 + Number(p), 0);
}

function formatIPv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

function ipv4Range(cidr: string): { network: number; broadcast: number } | undefined {
  const [addr, bitsText] = cidr.split('/');
  const ip = addr === undefined ? undefined : parseIPv4(addr);
  const bits = Number(bitsText);
  if (ip === undefined || !/^\d{1,2}$/.test(bitsText ?? '') || bits > 30) return undefined;
  const size = 2 ** (32 - bits);
  const network = Math.floor(ip / size) * size;
  return { network, broadcast: network + size - 1 };
}
