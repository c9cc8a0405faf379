/** Kubernetes' semver library (k8s.io/apiserver/pkg/cel/library/semverlib.go), on blang/semver's rules. */
import type { Environment } from '@marcbachmann/cel-js';
import { celError } from '../values';

export class CelSemver {
  constructor(
    readonly major: bigint,
    readonly minor: bigint,
    readonly patch: bigint,
    readonly pre: readonly string[],
  ) {}
  compareTo(o: CelSemver): number {
    for (const [a, b] of [[this.major, o.major], [this.minor, o.minor], [this.patch, o.patch]] as const) if (a !== b) return a < b ? -1 : 1;
    if (this.pre.length === 0 || o.pre.length === 0) return this.pre.length === o.pre.length ? 0 : this.pre.length === 0 ? 1 : -1;
    for (let i = 0; i < Math.min(this.pre.length, o.pre.length); i++) {
      const a = this.pre[i]!;
      const b = o.pre[i]!;
      const na = /^\d+$/.test(a);
      const nb = /^\d+$/.test(b);
      if (na && nb) {
        if (BigInt(a) !== BigInt(b)) return BigInt(a) < BigInt(b) ? -1 : 1;
      } else if (na !== nb) return na ? -1 : 1;
      else if (a !== b) return a < b ? -1 : 1;
    }
    return this.pre.length === o.pre.length ? 0 : this.pre.length < o.pre.length ? -1 : 1;
  }
}

function parse(s: string): CelSemver | string {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/.exec(s);
  if (!m) {
    const parts = s.split('.');
    if (parts.length !== 3) return 'No Major.Minor.Patch elements found';
    return `Invalid character(s) found in version "${s}"`;
  }
  for (const n of [m[1]!, m[2]!, m[3]!]) if (n.length > 1 && n.startsWith('0')) return `Version segment starts with 0: "${n}"`;
  const pre = m[4] ? m[4].split('.') : [];
  for (const p of pre) if (/^\d+$/.test(p) && p.length > 1 && p.startsWith('0')) return `Numeric PreRelease version must not contain leading zeroes "${p}"`;
  return new CelSemver(BigInt(m[1]!), BigInt(m[2]!), BigInt(m[3]!), pre);
}

/** semver(s, true): leading "v" dropped, missing minor/patch filled with 0, leading zeros removed. */
function normalize(s: string): string {
  let v = s.startsWith('v') ? s.slice(1) : s;
  const m = /^(\d+)(?:\.(\d+))?(?:\.(\d+))?(.*)$/.exec(v);
  if (!m) return v;
  const strip = (x: string | undefined): string => (x === undefined ? '0' : String(BigInt(x)));
  v = `${strip(m[1])}.${strip(m[2])}.${strip(m[3])}${m[4] ?? ''}`;
  return v;
}

function semver(s: string, norm = false): CelSemver {
  const r = parse(norm ? normalize(s) : s);
  if (typeof r === 'string') throw celError(r);
  return r;
}

export function registerSemver(env: Environment): void {
  env
    .registerType('kubernetes.Semver', CelSemver)
    .registerFunction('semver(string): kubernetes.Semver', (s: string) => semver(s))
    .registerFunction('semver(string, bool): kubernetes.Semver', semver)
    .registerFunction('isSemver(string): bool', (s: string) => typeof parse(s) !== 'string')
    .registerFunction('isSemver(string, bool): bool', (s: string, n: boolean) => typeof parse(n ? normalize(s) : s) !== 'string')
    .registerFunction('kubernetes.Semver.isGreaterThan(kubernetes.Semver): bool', (a: CelSemver, b: CelSemver) => a.compareTo(b) > 0)
    .registerFunction('kubernetes.Semver.isLessThan(kubernetes.Semver): bool', (a: CelSemver, b: CelSemver) => a.compareTo(b) < 0)
    .registerFunction('kubernetes.Semver.compareTo(kubernetes.Semver): int', (a: CelSemver, b: CelSemver) => BigInt(a.compareTo(b)))
    .registerFunction('kubernetes.Semver.major(): int', (a: CelSemver) => a.major)
    .registerFunction('kubernetes.Semver.minor(): int', (a: CelSemver) => a.minor)
    .registerFunction('kubernetes.Semver.patch(): int', (a: CelSemver) => a.patch);
}
