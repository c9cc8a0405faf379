/**
 * Taints and tolerations (k8s.io/api core/v1 toleration.go, component-helpers
 * scheduling/corev1). The Lt/Gt toleration operators are behind the alpha
 * TaintTolerationComparisonOperators gate in 1.35 (off), so they tolerate nothing.
 */
import type { Taint, Toleration } from './types';

export function toleratesTaint(t: Toleration, taint: Taint): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.key && t.key !== taint.key) return false;
  switch (t.operator ?? '') {
    case '':
    case 'Equal':
      return (t.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

export function tolerationsTolerateTaint(tolerations: readonly Toleration[] | null | undefined, taint: Taint): boolean {
  if (!tolerations) return false;
  for (const t of tolerations) if (toleratesTaint(t, taint)) return true;
  return false;
}

/** FindMatchingUntoleratedTaint: the first taint (of those given) no toleration tolerates. */
export function findUntoleratedTaint(taints: readonly Taint[], tolerations: readonly Toleration[] | null | undefined): Taint | undefined {
  for (const taint of taints) if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
  return undefined;
}

export const UNSCHEDULABLE_TAINT: Taint = Object.freeze({ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' });

export const isScheduleBlocking = (t: Taint): boolean => t.effect === 'NoSchedule' || t.effect === 'NoExecute';
