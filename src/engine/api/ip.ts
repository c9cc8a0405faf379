/**
 * IP and CIDR validation of k8s.io/apimachinery/pkg/util/validation/ip.go (release-1.35).
 *
 * Kubernetes parses with k8s.io/utils/net's ParseIPSloppy (Go 1.16's net.ParseIP, which
 * accepts leading zeros in IPv4 octets and long IPv6 groups) and then applies netip's strict
 * rules on top; messages depend on which of the two parsers rejects a value, so both are
 * reproduced here, together with Go's String() forms used for "canonical form" messages.
 */
import { invalid, type ErrorList, type FieldError, type Path } from './field';
import { goQuote } from './gofmt';

/** 16 bytes, IPv4 addresses in IPv4-mapped form, as Go's net.IP from ParseIP. */
type IP = Uint8Array;

const v4InV6Prefix = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff];

/** Go's dtoi/xtoi: digits up to the first non-digit; fails on none or on overflow. */
function leadingNumber(s: string, base: 10 | 16): { n: number; len: number } | undefined {
  const digit = base === 10 ? /[0-9]/ : /[0-9a-fA-F]/;
  let n = 0;
  let i = 0;
  for (; i < s.length && digit.test(s[i]!); i++) {
    n = n * base + parseInt(s[i]!, base);
    if (n >= 0xffffff) return undefined;
  }
  return i === 0 ? undefined : { n, len: i };
}

function parseIPv4Bytes(s: string): number[] | undefined {
  const out: number[] = [];
  let rest = s;
  for (let i = 0; i < 4; i++) {
    if (rest.length === 0) return undefined;
    if (i > 0) {
      if (rest[0] !== '.') return undefined;
      rest = rest.slice(1);
    }
    const num = leadingNumber(rest, 10);
    if (!num || num.n > 0xff) return undefined;
    rest = rest.slice(num.len);
    out.push(num.n);
  }
  return rest.length === 0 ? out : undefined;
}

function parseIPv4(s: string): IP | undefined {
  const b = parseIPv4Bytes(s);
  return b ? Uint8Array.from([...v4InV6Prefix, ...b]) : undefined;
}

function parseIPv6(input: string): IP | undefined {
  const ip = new Uint8Array(16);
  let s = input;
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return ip;
  }
  let i = 0;
  while (i < 16) {
    const num = leadingNumber(s, 16);
    if (!num || num.n > 0xffff) return undefined;
    if (num.len < s.length && s[num.len] === '.') {
      if (ellipsis < 0 && i !== 12) return undefined;
      if (i + 4 > 16) return undefined;
      const v4 = parseIPv4Bytes(s);
      if (!v4) return undefined;
      ip.set(v4, i);
      s = '';
      i += 4;
      break;
    }
    ip[i] = num.n >> 8;
    ip[i + 1] = num.n & 0xff;
    i += 2;
    s = s.slice(num.len);
    if (s.length === 0) break;
    if (s[0] !== ':' || s.length === 1) return undefined;
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) return undefined;
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) return undefined;
  if (i < 16) {
    if (ellipsis < 0) return undefined;
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    for (let j = ellipsis + n - 1; j >= ellipsis; j--) ip[j] = 0;
  } else if (ellipsis >= 0) {
    return undefined;
  }
  return ip;
}

/** netutils.ParseIPSloppy. */
export function parseIPSloppy(s: string): IP | undefined {
  for (const ch of s) {
    if (ch === '.') return parseIPv4(s);
    if (ch === ':') return parseIPv6(s);
  }
  return undefined;
}

function isV4Mapped(ip: IP): boolean {
  return v4InV6Prefix.every((b, i) => ip[i] === b);
}

/** Whether the value, parsed sloppily, is an IPv4 address (net.IP.To4() != nil). */
export function isIPv4(ip: IP): boolean {
  return isV4Mapped(ip);
}

/** net.IP.String(). */
export function ipString(ip: IP): string {
  if (isV4Mapped(ip)) return `${ip[12]}.${ip[13]}.${ip[14]}.${ip[15]}`;
  let e0 = -1;
  let e1 = -1;
  for (let i = 0; i < 16; i += 2) {
    let j = i;
    while (j < 16 && ip[j] === 0 && ip[j + 1] === 0) j += 2;
    if (j > i && j - i > e1 - e0) {
      e0 = i;
      e1 = j;
      i = j;
    }
  }
  if (e1 - e0 <= 2) {
    e0 = -1;
    e1 = -1;
  }
  let out = '';
  for (let i = 0; i < 16; i += 2) {
    if (i === e0) {
      out += '::';
      i = e1;
      if (i >= 16) break;
    } else if (i > 0) {
      out += ':';
    }
    out += ((ip[i]! << 8) | ip[i + 1]!).toString(16);
  }
  return out;
}

/**
 * What netip.ParseAddr adds on top of the sloppy parser: no leading zeros in IPv4 octets
 * (also inside IPv6) and at most four hex digits per IPv6 group. Returns false when netip
 * would reject a value the sloppy parser accepted.
 */
function strictlyParses(s: string): boolean {
  const octetsOk = (v4: string): boolean => v4.split('.').every((o) => o === '0' || !o.startsWith('0'));
  if (!s.includes(':')) return octetsOk(s);
  const groups = s.split(':');
  const last = groups[groups.length - 1]!;
  if (last.includes('.')) {
    if (!octetsOk(last)) return false;
    groups.pop();
  }
  return groups.every((g) => g.length <= 4);
}

function parseIP(fldPath: Path | undefined, value: string, strict: boolean): { ip?: IP; errs: ErrorList } {
  const ip = parseIPSloppy(value);
  if (!ip) return { errs: [invalid(fldPath, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')] };
  const errs: ErrorList = [];
  if (strict) {
    if (!strictlyParses(value)) errs.push(invalid(fldPath, value, 'must not have leading 0s'));
    else if (value.includes(':') && isV4Mapped(ip)) errs.push(invalid(fldPath, value, 'must not be an IPv4-mapped IPv6 address'));
  }
  return { ip, errs };
}

const withOrigin = (errs: ErrorList, origin: string): FieldError[] => errs.map((e) => e.withOrigin(origin));

/** IsValidIPForLegacyField: old IP fields; values listed in validOldIPs stay acceptable on update. */
export function isValidIPForLegacyField(fldPath: Path | undefined, value: string, strict: boolean, validOldIPs: readonly string[] = []): ErrorList {
  if (validOldIPs.includes(value)) return [];
  return withOrigin(parseIP(fldPath, value, strict).errs, 'format=ip-sloppy');
}

/** IsValidIP: a strictly parsed IP in canonical form. */
export function isValidIP(fldPath: Path | undefined, value: string): ErrorList {
  const { ip, errs } = parseIP(fldPath, value, true);
  if (errs.length === 0 && ip && value !== ipString(ip)) {
    errs.push(invalid(fldPath, value, `must be in canonical form (${goQuote(ipString(ip))})`));
  }
  return withOrigin(errs, 'format=ip-strict');
}

interface IPNet {
  ip: IP;
  /** The network number (masked address). */
  network: IP;
  /** The prefix length as written. */
  bits: number;
  /** Whether the address was written in IPv4 form (Go's mask is then 4 bytes long). */
  written4: boolean;
}

/** netutils.ParseCIDRSloppy. */
export function parseCIDRSloppy(s: string): IPNet | undefined {
  const slash = s.indexOf('/');
  if (slash < 0) return undefined;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  let ip = parseIPv4(addr);
  const written4 = ip !== undefined;
  if (!ip) ip = parseIPv6(addr);
  const num = leadingNumber(mask, 10);
  if (!ip || !num || num.len !== mask.length || num.n > (written4 ? 32 : 128)) return undefined;
  const prefixBits = written4 ? num.n + 96 : num.n;
  const network = ip.map((b, i) => {
    const bitsHere = Math.max(0, Math.min(8, prefixBits - i * 8));
    return b & ((0xff << (8 - bitsHere)) & 0xff);
  });
  return { ip, network, bits: num.n, written4 };
}

/** IPNet.String(): an IPv4 network shows the mask relative to its last four bytes. */
export function ipNetString(n: IPNet): string {
  const bits = n.written4 || !isV4Mapped(n.network) ? n.bits : Math.max(0, n.bits - 96);
  return `${ipString(n.network)}/${bits}`;
}

function strictPrefixParses(value: string): boolean {
  const slash = value.indexOf('/');
  const bits = value.slice(slash + 1);
  if (bits.length > 1 && bits.startsWith('0')) return false;
  return strictlyParses(value.slice(0, slash));
}

function parseCIDR(fldPath: Path | undefined, value: string, strict: boolean): { net?: IPNet; errs: ErrorList } {
  const net = parseCIDRSloppy(value);
  if (!net) return { errs: [invalid(fldPath, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')] };
  const errs: ErrorList = [];
  if (strict) {
    if (!strictPrefixParses(value)) errs.push(invalid(fldPath, value, 'must not have leading 0s in IP or prefix length'));
    else if (!net.written4 && isV4Mapped(net.ip)) errs.push(invalid(fldPath, value, 'must not have an IPv4-mapped IPv6 address'));
    else if (!net.ip.every((b, i) => b === net.network[i])) errs.push(invalid(fldPath, value, 'must not have bits set beyond the prefix length'));
  }
  return { net, errs };
}

export function isValidCIDRForLegacyField(fldPath: Path | undefined, value: string, strict: boolean, validOldCIDRs: readonly string[] = []): ErrorList {
  if (validOldCIDRs.includes(value)) return [];
  return parseCIDR(fldPath, value, strict).errs;
}

/** IsValidCIDR: a subnet ("192.168.1.0/24") in canonical form. */
export function isValidCIDR(fldPath: Path | undefined, value: string): ErrorList {
  const { net, errs } = parseCIDR(fldPath, value, true);
  if (errs.length === 0 && net && value !== ipNetString(net)) {
    errs.push(invalid(fldPath, value, `must be in canonical form (${goQuote(ipNetString(net))})`));
  }
  return errs;
}

/** IsValidInterfaceAddress: an address with its prefix length ("192.168.1.5/24"). */
export function isValidInterfaceAddress(fldPath: Path | undefined, value: string): ErrorList {
  const net = parseCIDRSloppy(value);
  if (!net) return [invalid(fldPath, value, 'must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)')];
  // Go reports an IPv4-mapped address against its 128-bit mask minus 96, even below zero.
  const bits = !net.written4 && isV4Mapped(net.ip) && net.bits > 32 ? net.bits - 96 : net.bits;
  const canonical = `${ipString(net.ip)}/${bits}`;
  return value === canonical ? [] : [invalid(fldPath, value, `must be in canonical form (${goQuote(canonical)})`)];
}
