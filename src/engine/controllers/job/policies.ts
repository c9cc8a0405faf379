/**
 * The Job's pod failure policy (pkg/controller/job/pod_failure_policy.go) and success policy
 * (success_policy.go): which failed pods fail the Job at once, which are not counted against the
 * backoff limit, and which sets of succeeded indexes complete an Indexed Job early.
 */
import { parseIntervals, total, type Interval } from './indexed';
import type { ContainerStatus, Job, Pod, PodFailurePolicy, PodFailurePolicyRule, SuccessPolicy } from '../util/types/job';

export const REASON_POD_FAILURE_POLICY = 'PodFailurePolicy';
export const REASON_SUCCESS_POLICY = 'SuccessPolicy';

export interface PolicyMatch {
  /** The Job failure message, when a FailJob rule matched. */
  readonly failJobMessage?: string;
  /** Whether the failure counts against backoffLimit (not after an Ignore rule). */
  readonly count: boolean;
  readonly action?: PodFailurePolicyRule['action'];
}

const exitCodeMatches = (code: number, req: NonNullable<PodFailurePolicyRule['onExitCodes']>): boolean =>
  req.operator === 'In' ? req.values.includes(code) : req.operator === 'NotIn' ? !req.values.includes(code) : false;

/** getMatchingContainerFromList: the first terminated container with a non-zero code the requirement matches. */
function matchingContainer(statuses: readonly ContainerStatus[] | undefined, req: NonNullable<PodFailurePolicyRule['onExitCodes']>): ContainerStatus | undefined {
  for (const s of statuses ?? []) {
    const t = s.state?.terminated;
    if (!t) continue;
    if (req.containerName !== undefined && req.containerName !== null && req.containerName !== s.name) continue;
    const code = t.exitCode ?? 0;
    if (code !== 0 && exitCodeMatches(code, req)) return s;
  }
  return undefined;
}

/** matchPodFailurePolicy: the first rule the failed pod matches decides. */
export function matchPodFailurePolicy(policy: PodFailurePolicy | null | undefined, pod: Pod): PolicyMatch {
  if (!policy) return { count: true };
  const ns = pod.metadata.namespace ?? '';
  const name = pod.metadata.name ?? '';
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    if (rule.onExitCodes) {
      const s = matchingContainer(pod.status?.containerStatuses, rule.onExitCodes) ?? matchingContainer(pod.status?.initContainerStatuses, rule.onExitCodes);
      if (!s) continue;
      if (rule.action === 'FailJob') {
        return { count: true, action: rule.action, failJobMessage: `Container ${s.name ?? ''} for pod ${ns}/${name} failed with exit code ${s.state?.terminated?.exitCode ?? 0} matching FailJob rule at index ${index}` };
      }
      return { count: rule.action !== 'Ignore', action: rule.action };
    } else if (rule.onPodConditions) {
      const c = (pod.status?.conditions ?? []).find((cond) => rule.onPodConditions!.some((p) => p.type === cond.type && p.status === cond.status));
      if (!c) continue;
      if (rule.action === 'FailJob') return { count: true, action: rule.action, failJobMessage: `Pod ${ns}/${name} has condition ${c.type} matching FailJob rule at index ${index}` };
      return { count: rule.action !== 'Ignore', action: rule.action };
    }
  }
  return { count: true };
}

/** getFailJobMessage: the message of the first failed pod that matches a FailJob rule. */
export function failJobMessage(job: Job, pods: readonly Pod[]): string | undefined {
  if (!job.spec.podFailurePolicy) return undefined;
  for (const p of pods) {
    if (p.status?.phase !== 'Failed') continue;
    const m = matchPodFailurePolicy(job.spec.podFailurePolicy, p);
    if (m.failJobMessage) return m.failJobMessage;
  }
  return undefined;
}

/** matchSucceededIndexesRule: the rule's indexes all succeeded, or at least succeededCount of them. */
function matchesIndexesRule(rule: readonly Interval[], succeeded: readonly Interval[], count: number | null | undefined): boolean {
  let contains = 0;
  let r = 0;
  let s = 0;
  while (r < rule.length && s < succeeded.length) {
    const overlap = Math.min(rule[r]!.last, succeeded[s]!.last) - Math.max(rule[r]!.first, succeeded[s]!.first) + 1;
    if (overlap > 0) contains += overlap;
    if (succeeded[s]!.last < rule[r]!.last) s++;
    else if (succeeded[s]!.last > rule[r]!.last) r++;
    else {
      s++;
      r++;
    }
  }
  return contains === total(rule) || (count !== undefined && count !== null && contains >= count);
}

/** matchSuccessPolicy: "Matched rules at index <i>" for the first rule the succeeded indexes satisfy. */
export function matchSuccessPolicy(policy: SuccessPolicy | null | undefined, completions: number, succeeded: readonly Interval[]): string | undefined {
  if (!policy || succeeded.length === 0) return undefined;
  for (const [index, rule] of (policy.rules ?? []).entries()) {
    if (rule.succeededIndexes !== undefined && rule.succeededIndexes !== null) {
      const required = parseIntervals(rule.succeededIndexes, completions);
      if (required.length === 0) continue;
      if (matchesIndexesRule(required, succeeded, rule.succeededCount)) return `Matched rules at index ${index}`;
    } else if (rule.succeededCount !== undefined && rule.succeededCount !== null && total(succeeded) >= rule.succeededCount) {
      return `Matched rules at index ${index}`;
    }
  }
  return undefined;
}
