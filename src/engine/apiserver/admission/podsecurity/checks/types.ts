/** A Pod Security check and its revisions across policy versions (policy.Check). */
import type { PodView } from '../pod';
import type { CheckResult } from '../result';

export type CheckFn = (pod: PodView) => CheckResult;

export interface VersionedCheck {
  /** The first policy version (v1.<minor>) this revision applies to. */
  readonly minimumVersion: number;
  readonly check: CheckFn;
  /** Baseline checks that this restricted check replaces from this version on. */
  readonly overrides?: readonly string[];
}

export interface Check {
  readonly id: string;
  readonly level: 'baseline' | 'restricted';
  /** Revisions in strictly increasing version order. */
  readonly versions: readonly VersionedCheck[];
}

/** A revision that lets Windows pods through and otherwise defers to another. */
export const exceptWindows = (fn: CheckFn, isWindows: (spec: PodView['spec']) => boolean): CheckFn => (pod) =>
  isWindows(pod.spec) ? { allowed: true } : fn(pod);
