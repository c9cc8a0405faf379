/**
 * What a check says about a pod, and how the results of every check of a level combine into the
 * text kube-apiserver answers with (k8s.io/pod-security-admission/policy: CheckResult,
 * AggregateCheckResult).
 */
export interface CheckResult {
  readonly allowed: boolean;
  /** Short, always shown: "host ports", "privileged". */
  readonly forbiddenReason?: string;
  /** The values or containers at fault, shown for a single object: `container "a" must ...`. */
  readonly forbiddenDetail?: string;
}

export const ALLOWED: CheckResult = { allowed: true };

export const forbidden = (forbiddenReason: string, forbiddenDetail: string): CheckResult => ({ allowed: false, forbiddenReason, forbiddenDetail });

/** The placeholder for a check that refuses without saying why. */
export const UNKNOWN_FORBIDDEN_REASON = 'unknown forbidden reason';

export interface AggregateResult {
  readonly allowed: boolean;
  readonly reasons: readonly string[];
  readonly details: readonly string[];
}

export function aggregate(results: readonly CheckResult[]): AggregateResult {
  const reasons: string[] = [];
  const details: string[] = [];
  for (const r of results) {
    if (r.allowed) continue;
    reasons.push(r.forbiddenReason || UNKNOWN_FORBIDDEN_REASON);
    details.push(r.forbiddenDetail ?? '');
  }
  return { allowed: reasons.length === 0, reasons, details };
}

/** "host ports, privileged": the reasons alone (a namespace's pods are summed up this way). */
export const forbiddenReason = (a: AggregateResult): string => a.reasons.join(', ');

/** "host ports (8080), privileged (container "a" must ...)": each reason with its detail. */
export function forbiddenDetail(a: AggregateResult): string {
  return a.reasons.map((r, i) => (a.details[i] ? `${r} (${a.details[i]})` : r)).join(', ');
}
