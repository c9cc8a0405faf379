/** Kubernetes' ip and cidr libraries (k8s.io/apiserver/pkg/cel/library/ip.go, cidr.go). */
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from '../values';

/** An IP address as 16 bytes (IPv4 as the IPv4-mapped form) with its family. */
export class CelIP {
  constructor(
    readonly bytes: Uint8Array,
    readonly family: 4 | 6,
  ) {}
  toString(): string {
    if (this.family === 4) return Array.from(this.bytes.slice(12)).join('.');
    return formatIPv6(this.bytes);
  }
}

export class CelCIDR {
  constructor(
    readonly ip: CelIP,
    readonly prefix: number,
  ) {}
  toString(): string {
    return `${this.ip.toString()}/${this.prefix}`;
  }
}

function parseIPv4(s: string): Uint8Array | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const out = new Uint8Array(16);
  out[10] = 0xff;
  out[11] = 0xff;
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!;
    // netip.ParseAddr refuses leading zeros
    if (!/^\d{1,3}$/.test(p) || (p.length > 1 && p.startsWith('0')) || Number(p) > 255) return undefined;
    out[12 + i] = Number(p);
  }
  return out;
}

function parseIPv6(s: string): Uint8Array | undefined {
  if (s.includes('%')) return undefined;
  let head = s;
  let tail = '';
  const dbl = s.indexOf('::');
  if (dbl >= 0) {
    if (s.indexOf('::', dbl + 1) >= 0) return undefined;
    head = s.slice(0, dbl);
    tail = s.slice(dbl + 2);
  }
  const groups = (part: string): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const items = part.split(':');
    for (let i = 0; i < items.length; i++) {
      const it = items[i]!;
      if (i === items.length - 1 && it.includes('.')) {
        const v4 = parseIPv4(it);
        if (!v4) return undefined;
        out.push((v4[12]! << 8) | v4[13]!, (v4[14]! << 8) | v4[15]!);
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(it)) return undefined;
      out.push(parseInt(it, 16));
    }
    return out;
  };
  const h = groups(head);
  const t = groups(tail);
  if (!h || !t) return undefined;
  const missing = 8 - h.length - t.length;
  if (dbl < 0 ? missing !== 0 : missing < 1) return undefined;
  const all = [...h, ...Array<number>(dbl < 0 ? 0 : missing).fill(0), ...t];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  return out;
}

function formatIPv6(b: Uint8Array): string {
  const g: number[] = [];
  for (let i = 0; i < 8; i++) g.push((b[2 * i]! << 8) | b[2 * i + 1]!);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = g.map((x) => x.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

function parseAddr(s: string): CelIP | string {
  if (s.includes('%')) return `IP address "${s}" with zone value is not allowed`;
  const v4 = s.includes(':') ? undefined : parseIPv4(s);
  if (v4) return new CelIP(v4, 4);
  const v6 = parseIPv6(s);
  if (!v6) return `IP Address "${s}" parse error during conversion from string: ParseAddr("${s}"): unable to parse IP`;
  if (v6.slice(0, 10).every((x) => x === 0) && v6[10] === 0xff && v6[11] === 0xff) return `IPv4-mapped IPv6 address "${s}" is not allowed`;
  return new CelIP(v6, 6);
}

function ip(s: string): CelIP {
  const r = parseAddr(s);
  if (typeof r === 'string') throw celError(r);
  return r;
}

function parsePrefix(s: string): CelCIDR | string {
  const slash = s.indexOf('/');
  if (slash < 0) return `network address parse error during conversion from string: netip.ParsePrefix("${s}"): no '/'`;
  const addr = parseAddr(s.slice(0, slash));
  const bits = s.slice(slash + 1);
  if (typeof addr === 'string') {
    if (addr.includes('IPv4-mapped')) return `IPv4-mapped IPv6 address "${s}" is not allowed`;
    return `network address parse error during conversion from string: netip.ParsePrefix("${s}"): ParseAddr("${s.slice(0, slash)}"): unable to parse IP`;
  }
  const max = addr.family === 4 ? 32 : 128;
  if (!/^\d+$/.test(bits) || (bits.length > 1 && bits.startsWith('0')) || Number(bits) > max) {
    return `network address parse error during conversion from string: netip.ParsePrefix("${s}"): bad bits after slash: "${bits}"`;
  }
  return new CelCIDR(addr, Number(bits));
}

function cidr(s: string): CelCIDR {
  const r = parsePrefix(s);
  if (typeof r === 'string') throw celError(r);
  return r;
}

function masked(c: CelCIDR): CelCIDR {
  const bytes = new Uint8Array(c.ip.bytes);
  const total = c.ip.family === 4 ? 96 + c.prefix : c.prefix;
  for (let bit = total; bit < 128; bit++) bytes[bit >> 3]! &= ~(0x80 >> (bit & 7));
  return new CelCIDR(new CelIP(bytes, c.ip.family), c.prefix);
}

function containsIP(c: CelCIDR, a: CelIP): boolean {
  if (c.ip.family !== a.family) return false;
  const total = c.ip.family === 4 ? 96 + c.prefix : c.prefix;
  for (let bit = 0; bit < total; bit++) {
    const m = 0x80 >> (bit & 7);
    if ((c.ip.bytes[bit >> 3]! & m) !== (a.bytes[bit >> 3]! & m)) return false;
  }
  return true;
}

const isCanonical = (s: string): boolean => {
  const r = parseAddr(s);
  if (typeof r === 'string') throw celError(r);
  return r.toString() === s;
};

const v4 = (a: CelIP): number[] => Array.from(a.bytes.slice(12));

export function registerNetwork(env: Environment): void {
  env
    .registerType('net.IP', CelIP)
    .registerType('net.CIDR', CelCIDR)
    .registerFunction('ip(string): net.IP', ip)
    .registerFunction('isIP(string): bool', (s: string) => typeof parseAddr(s) !== 'string')
    .registerFunction('string(net.IP): string', (a: CelIP) => a.toString())
    .registerFunction('IPNamespace.isCanonical(string): bool', (_ns: unknown, s: string) => isCanonical(s))
    .registerFunction('net.IP.family(): int', (a: CelIP) => BigInt(a.family))
    .registerFunction('net.IP.isUnspecified(): bool', (a: CelIP) => (a.family === 4 ? v4(a).every((x) => x === 0) : a.bytes.every((x) => x === 0)))
    .registerFunction('net.IP.isLoopback(): bool', (a: CelIP) => (a.family === 4 ? a.bytes[12] === 127 : a.bytes.slice(0, 15).every((x) => x === 0) && a.bytes[15] === 1))
    .registerFunction('net.IP.isLinkLocalMulticast(): bool', (a: CelIP) => (a.family === 4 ? a.bytes[12] === 224 && a.bytes[13] === 0 && a.bytes[14] === 0 : a.bytes[0] === 0xff && (a.bytes[1]! & 0x0f) === 0x02))
    .registerFunction('net.IP.isLinkLocalUnicast(): bool', (a: CelIP) => (a.family === 4 ? a.bytes[12] === 169 && a.bytes[13] === 254 : a.bytes[0] === 0xfe && (a.bytes[1]! & 0xc0) === 0x80))
    .registerFunction('net.IP.isGlobalUnicast(): bool', (a: CelIP) => {
      if (a.family === 4) {
        const [b0, b1, b2, b3] = v4(a) as [number, number, number, number];
        if (b0 === 0 || b0 === 127 || b0 >= 224 || (b0 === 169 && b1 === 254)) return false;
        return !(b0 === 255 && b1 === 255 && b2 === 255 && b3 === 255);
      }
      const unspecified = a.bytes.every((x) => x === 0);
      const loopback = a.bytes.slice(0, 15).every((x) => x === 0) && a.bytes[15] === 1;
      return !unspecified && !loopback && a.bytes[0] !== 0xff && !(a.bytes[0] === 0xfe && (a.bytes[1]! & 0xc0) === 0x80);
    })
    .registerFunction('cidr(string): net.CIDR', cidr)
    .registerFunction('isCIDR(string): bool', (s: string) => typeof parsePrefix(s) !== 'string')
    .registerFunction('string(net.CIDR): string', (c: CelCIDR) => c.toString())
    .registerFunction('net.CIDR.containsIP(string): bool', (c: CelCIDR, s: string) => containsIP(c, ip(s)))
    .registerFunction('net.CIDR.containsIP(net.IP): bool', containsIP)
    .registerFunction('net.CIDR.containsCIDR(string): bool', (c: CelCIDR, s: string) => {
      const o = cidr(s);
      return o.prefix >= c.prefix && containsIP(c, o.ip);
    })
    .registerFunction('net.CIDR.containsCIDR(net.CIDR): bool', (c: CelCIDR, o: CelCIDR) => o.prefix >= c.prefix && containsIP(c, o.ip))
    .registerFunction('net.CIDR.ip(): net.IP', (c: CelCIDR) => c.ip)
    .registerFunction('net.CIDR.prefixLength(): int', (c: CelCIDR) => BigInt(c.prefix))
    .registerFunction('net.CIDR.masked(): net.CIDR', masked);
}
