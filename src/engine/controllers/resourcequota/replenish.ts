/**
 * Which changes to tracked objects give quota back (the quota monitor's update filter): every
 * deletion does; of updates, only a pod that stops being charged (it finished, or is stuck
 * terminating past its grace period), a Service whose quota-relevant type changed, and a claim
 * whose storage request changed. Creations are charged by admission and need no recalculation.
 */
import { isObject, type KubeObject } from '../../api/types';
import { timeMs } from '../../api/time';
import type { GroupResource } from './usage';

/** QuotaV1Pod. */
export function quotaV1Pod(pod: KubeObject, nowMs: number): boolean {
  const phase = isObject(pod.status) ? pod.status.phase : undefined;
  if (phase === 'Succeeded' || phase === 'Failed') return false;
  const grace = pod.metadata.deletionGracePeriodSeconds;
  if (pod.metadata.deletionTimestamp && grace !== undefined && nowMs > timeMs(pod.metadata.deletionTimestamp) + grace * 1000) return false;
  return true;
}

/** GetQuotaServiceType: the types quota counts separately. */
function quotaServiceType(svc: KubeObject): string {
  const type = isObject(svc.spec) ? svc.spec.type : undefined;
  return type === 'NodePort' || type === 'LoadBalancer' ? type : '';
}

function storageRequest(pvc: KubeObject): unknown {
  const spec = isObject(pvc.spec) ? pvc.spec : {};
  const resources = isObject(spec.resources) ? spec.resources : {};
  return isObject(resources.requests) ? resources.requests.storage : undefined;
}

export function updateNeedsReplenish(gr: GroupResource, old: KubeObject, obj: KubeObject, nowMs: number): boolean {
  if (gr.group !== '') return false;
  switch (gr.resource) {
    case 'pods':
      return quotaV1Pod(old, nowMs) && !quotaV1Pod(obj, nowMs);
    case 'services':
      return quotaServiceType(old) !== quotaServiceType(obj);
    case 'persistentvolumeclaims':
      return storageRequest(old) !== storageRequest(obj);
    default:
      return false;
  }
}
