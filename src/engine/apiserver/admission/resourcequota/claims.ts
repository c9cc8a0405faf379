/**
 * The persistent volume claim evaluator (pkg/quota/v1/evaluator/core/persistent_volume_claims.go):
 * every claim counts, in total and per storage class (the beta annotation first, then
 * spec.storageClassName), with its storage request rounded up to whole bytes, or what the
 * volume was expanded to when that is more. The VolumeAttributesClass scope selects claims by
 * the classes they name or are being moved to.
 */
import { Quantity } from '../../../api/quantity';
import { isObject, type KubeObject } from '../../../api/types';
import type { Evaluator } from './evaluators';
import { parseResourceList, type ResourceList } from './resources';
import { quotaScopes, selectorMatches } from './scopes';

const CLAIM_RESOURCES = ['persistentvolumeclaims', 'requests.storage'];
const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';

function storageClassOf(pvc: KubeObject): string {
  const annotated = pvc.metadata.annotations?.[BETA_STORAGE_CLASS];
  if (annotated !== undefined) return annotated;
  const spec = isObject(pvc.spec) ? pvc.spec : {};
  return typeof spec.storageClassName === 'string' ? spec.storageClassName : '';
}

function storageUsage(pvc: KubeObject): Quantity | undefined {
  const spec = isObject(pvc.spec) ? pvc.spec : {};
  const status = isObject(pvc.status) ? pvc.status : {};
  const requested = parseResourceList(isObject(spec.resources) ? spec.resources.requests : undefined).get('storage')?.roundUp(0);
  const allocated = parseResourceList(status.allocatedResources).get('storage');
  if (requested && allocated && allocated.cmp(requested) > 0) return allocated.roundUp(0);
  return requested;
}

function volumeAttributesClasses(pvc: KubeObject): string[] {
  const spec = isObject(pvc.spec) ? pvc.spec : {};
  const status = isObject(pvc.status) ? pvc.status : {};
  const modify = isObject(status.modifyVolumeStatus) ? status.modifyVolumeStatus : {};
  const names = [spec.volumeAttributesClassName, status.currentVolumeAttributesClassName, modify.targetVolumeAttributesClassName];
  return [...new Set(names.filter((n): n is string => typeof n === 'string' && n !== ''))];
}

export const claimEvaluator: Evaluator = {
  matchesResource: (n) => n === 'count/persistentvolumeclaims' || CLAIM_RESOURCES.includes(n) || CLAIM_RESOURCES.some((r) => n.endsWith(STORAGE_CLASS_SUFFIX + r)),
  matchesScopes: (quota, pvc) =>
    quotaScopes(quota).every((r) => r.scopeName === 'VolumeAttributesClass' && selectorMatches(r, volumeAttributesClasses(pvc))),
  usage(pvc) {
    const out: ResourceList = new Map([
      ['persistentvolumeclaims', Quantity.fromInt(1)],
      ['count/persistentvolumeclaims', Quantity.fromInt(1)],
    ]);
    const storageClass = storageClassOf(pvc);
    if (storageClass) out.set(`${storageClass}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, Quantity.fromInt(1));
    const storage = storageUsage(pvc);
    if (storage) {
      out.set('requests.storage', storage);
      if (storageClass) out.set(`${storageClass}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
    }
    return out;
  },
  constraints: () => undefined,
  // Status writes are looked at too: upstream's check for an expanded volume compares two
  // fresh pointers, so it always finds a change.
  handles: (op, sub) => ((op === 'CREATE' || op === 'UPDATE') && sub === '') || (op === 'UPDATE' && sub === 'status'),
};
