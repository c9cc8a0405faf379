/**
 * The evaluator (policy.checkRegistry): for each level and policy version, the revision of each
 * check in force, baseline checks first and then restricted ones, each group sorted by check ID
 * so that messages come out in upstream's order. A restricted check may replace baseline checks
 * (restricted capabilities replace baseline capabilities); versions newer than the newest
 * check revision, and latest, evaluate as that newest version.
 */
import { older, type LevelVersion } from './api';
import { DEFAULT_CHECKS, type Check } from './checks';
import type { CheckFn } from './checks/types';
import type { PodView } from './pod';
import { goCompare } from './pod';
import type { CheckResult } from './result';

interface Revision {
  readonly id: string;
  readonly check: CheckFn;
  readonly overrides: readonly string[];
}

export class Evaluator {
  /** The newest minimum version of any check revision: what latest means. */
  readonly maxMinor: number;
  private readonly baseline: CheckFn[][] = [];
  private readonly restricted: CheckFn[][] = [];

  constructor(checks: readonly Check[] = DEFAULT_CHECKS) {
    this.maxMinor = Math.max(...checks.map((c) => c.versions[c.versions.length - 1]!.minimumVersion));
    const order = [...checks.filter((c) => c.level === 'baseline'), ...checks.filter((c) => c.level === 'restricted')].sort(
      (a, b) => (a.level === b.level ? goCompare(a.id, b.id) : a.level === 'baseline' ? -1 : 1),
    );
    for (let minor = 0; minor <= this.maxMinor; minor++) {
      const inForce = order.map((c) => revisionAt(c, minor)).filter((r): r is Revision => r !== undefined);
      const byLevel = (level: Check['level']) => inForce.filter((r) => checks.find((c) => c.id === r.id)!.level === level);
      const overridden = new Set(byLevel('restricted').flatMap((r) => r.overrides));
      this.baseline[minor] = byLevel('baseline').map((r) => r.check);
      this.restricted[minor] = inForce.filter((r) => !overridden.has(r.id)).map((r) => r.check);
    }
  }

  /** Every check's result for the pod at the level and version; none for privileged. */
  evaluate(lv: LevelVersion, pod: PodView): CheckResult[] {
    if (lv.level === 'privileged') return [];
    const minor = older({ minor: this.maxMinor, latest: false }, lv.version) ? this.maxMinor : lv.version.minor;
    const fns = lv.level === 'baseline' ? this.baseline[minor]! : this.restricted[minor]!;
    return fns.map((fn) => fn(pod));
  }
}

/** The revision of a check in force at v1.<minor>, if the check exists yet. */
function revisionAt(c: Check, minor: number): Revision | undefined {
  let found: Revision | undefined;
  for (const v of c.versions) if (v.minimumVersion <= minor) found = { id: c.id, check: v.check, overrides: v.overrides ?? [] };
  return found;
}

let shared: Evaluator | undefined;

/** The evaluator of the default checks, built once. */
export function defaultEvaluator(): Evaluator {
  shared ??= new Evaluator();
  return shared;
}
