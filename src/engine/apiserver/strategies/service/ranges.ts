/**
 * The ClusterIP and NodePort allocators (pkg/registry/core/service/ipallocator and
 * portallocator): the API server's in-memory record of what is taken, rebuilt from the stored
 * Services at start and kept current by every Service write. Dynamic picks start at a random
 * point of the upper band (KEP-3070), leaving the lower band for values users ask for; the
 * Random is seeded, so a run allocates the same addresses every time.
 */
import type { Random } from '../../../random';
import { ipString, isIPv4, parseCIDRSloppy, parseIPSloppy } from '../../../api/ip';
import { nodePortAllocatedMessage, nodePortNotInRangeMessage } from '../../validation/core/nodeports';

/** A set of integer offsets [0, size) with a reserved lower band. */
class OffsetRange {
  readonly taken = new Set<number>();

  constructor(
    private readonly first: number,
    private readonly last: number,
    private readonly staticBand: number,
  ) {}

  has(offset: number): boolean {
    return this.taken.has(offset);
  }

  contains(offset: number): boolean {
    return offset >= this.first && offset <= this.last;
  }

  /** A free offset: random in the dynamic band, scanning forward, then the static band. */
  next(random: Random): number | undefined {
    const bandStart = Math.min(this.last, this.first + this.staticBand);
    const pick = (lo: number, hi: number): number | undefined => {
      const n = hi - lo + 1;
      if (n <= 0) return undefined;
      const start = random.int(n);
      for (let i = 0; i < n; i++) {
        const o = lo + ((start + i) % n);
        if (!this.taken.has(o)) return o;
      }
      return undefined;
    };
    return pick(bandStart, this.last) ?? pick(this.first, bandStart - 1);
  }
}

const bandSize = (size: number, divisor: number, max: number): number => Math.min(Math.max(16, Math.floor(size / divisor)), max);

export class ClusterIPRange {
  readonly cidr: string;
  private readonly base: number;
  private readonly offsets: OffsetRange;

  constructor(cidr: string) {
    const net = parseCIDRSloppy(cidr);
    if (!net || !isIPv4(net.network)) throw new Error(`service cluster IP range ${cidr} is not an IPv4 CIDR`);
    this.cidr = cidr;
    this.base = toUint32(ipString(net.network));
    const size = 2 ** (32 - net.bits);
    // The network and broadcast addresses are never handed out.
    this.offsets = new OffsetRange(1, size - 2, bandSize(size, 16, 256));
  }

  /** Allocates a specific address; the error text is the allocator's. */
  allocate(ip: string): string | undefined {
    const offset = this.offsetOf(ip);
    if (offset === undefined || !this.offsets.contains(offset)) {
      return `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${this.cidr}`;
    }
    if (this.offsets.has(offset)) return 'provided IP is already allocated';
    this.offsets.taken.add(offset);
    return undefined;
  }

  /** Checks what allocate would say without taking the address (dry run). */
  check(ip: string): string | undefined {
    const err = this.allocate(ip);
    if (err === undefined) this.release(ip);
    return err;
  }

  next(random: Random): string | undefined {
    const offset = this.offsets.next(random);
    return offset === undefined ? undefined : fromUint32(this.base + offset);
  }

  release(ip: string): void {
    const offset = this.offsetOf(ip);
    if (offset !== undefined) this.offsets.taken.delete(offset);
  }

  private offsetOf(ip: string): number | undefined {
    const parsed = parseIPSloppy(ip);
    if (!parsed || !isIPv4(parsed)) return undefined;
    return toUint32(ipString(parsed)) - this.base;
  }
}

export class NodePortRange {
  private readonly offsets: OffsetRange;

  constructor(
    readonly base: number,
    readonly size: number,
  ) {
    this.offsets = new OffsetRange(0, size - 1, bandSize(size, 32, 128));
  }

  allocate(port: number): string | undefined {
    const offset = port - this.base;
    if (!this.offsets.contains(offset)) return nodePortNotInRangeMessage(this);
    if (this.offsets.has(offset)) return nodePortAllocatedMessage;
    this.offsets.taken.add(offset);
    return undefined;
  }

  next(random: Random): number | undefined {
    const offset = this.offsets.next(random);
    return offset === undefined ? undefined : this.base + offset;
  }

  release(port: number): void {
    this.offsets.taken.delete(port - this.base);
  }
}

function toUint32(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function fromUint32(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');
}
