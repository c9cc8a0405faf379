/**
 * PodValidationOptions: the few rules that relax when the stored object already relied on the
 * older, looser behaviour (pkg/api/pod GetValidationOptionsFromPodSpecAndMeta). Rules whose
 * feature gates are on by default in 1.35 (relaxed env var names and DNS search domains, zero
 * sleep actions, pod-level resources, sidecar resize policies) are applied unconditionally.
 */
import { isValidLabelValue } from '../../../api/names';
import { arr, bool, obj, objs, str, type Obj } from './json';
import { parseQuantity } from './quantity';
import { isHugePageResourceName, isHugePageValueDivisible } from './resourcenames';

export interface PodValidationOptions {
  /** The object is a Pod, not a template embedded in a workload. */
  resourceIsPod: boolean;
  allowInvalidPodDeletionCost: boolean;
  allowInvalidLabelValueInSelector: boolean;
  allowInvalidLabelValueInRequiredNodeAffinity: boolean;
  allowIndivisibleHugePagesValues: boolean;
  allowInvalidTopologySpreadConstraintLabelSelector: boolean;
  allowNonLocalProjectedTokenPath: boolean;
  allowNamespacedSysctlsForHostNetAndHostIPC: boolean;
  /** SELinuxMount is off in 1.35, so only Recursive is accepted unless the old pod used a policy. */
  allowOnlyRecursiveSELinuxChangePolicy: boolean;
}

/** Options for a create (no old object). */
export function createOptions(resourceIsPod: boolean): PodValidationOptions {
  return {
    resourceIsPod,
    allowInvalidPodDeletionCost: false,
    allowInvalidLabelValueInSelector: false,
    allowInvalidLabelValueInRequiredNodeAffinity: false,
    allowIndivisibleHugePagesValues: false,
    allowInvalidTopologySpreadConstraintLabelSelector: false,
    allowNonLocalProjectedTokenPath: false,
    allowNamespacedSysctlsForHostNetAndHostIPC: false,
    allowOnlyRecursiveSELinuxChangePolicy: true,
  };
}

/**
 * Options for validating `spec` (with metadata `meta`) given the previously stored spec and
 * metadata; pass undefined olds on create.
 */
export function podValidationOptions(
  resourceIsPod: boolean,
  oldSpec: Obj | undefined,
  oldMeta: Obj | undefined,
): PodValidationOptions {
  const opts = createOptions(resourceIsPod);
  if (oldSpec) {
    opts.allowOnlyRecursiveSELinuxChangePolicy = obj(oldSpec['securityContext'])?.['seLinuxChangePolicy'] === undefined;
    opts.allowIndivisibleHugePagesValues = usesIndivisibleHugePagesValues(oldSpec);
    opts.allowInvalidLabelValueInSelector = hasInvalidLabelValueInAffinitySelector(oldSpec);
    opts.allowInvalidLabelValueInRequiredNodeAffinity = hasInvalidLabelValueInRequiredNodeAffinity(oldSpec);
    opts.allowInvalidTopologySpreadConstraintLabelSelector = objs(oldSpec['topologySpreadConstraints']).some((c) =>
      selectorHasInvalidLabelValue(obj(c['labelSelector'])),
    );
    opts.allowNonLocalProjectedTokenPath = hasNonLocalProjectedTokenPath(oldSpec);
    opts.allowNamespacedSysctlsForHostNetAndHostIPC = objs(obj(oldSpec['securityContext'])?.['sysctls']).some(
      (s) => hostSysctlConflict(str(s['name']), oldSpec) !== undefined,
    );
  }
  if (oldMeta) {
    const cost = obj(oldMeta['annotations'])?.[deletionCostAnnotation];
    opts.allowInvalidPodDeletionCost = typeof cost === 'string' && !isValidDeletionCost(cost);
  }
  return opts;
}

export const deletionCostAnnotation = 'controller.kubernetes.io/pod-deletion-cost';

/** helper.GetDeletionCostFromPodAnnotations without error: a canonical 32-bit decimal. */
export function isValidDeletionCost(value: string): boolean {
  // A plus sign or a leading zero is refused before strconv.ParseInt would accept it.
  if (!/^(-[0-9]+|0|[1-9][0-9]*)$/.test(value)) return false;
  const n = Number(value);
  return Number.isInteger(n) && n >= -2147483648 && n <= 2147483647;
}

/** The namespace of a namespaced sysctl shared with the host, or undefined. */
export function hostSysctlConflict(name: string, spec: Obj): 'net' | 'ipc' | undefined {
  const ns = sysctlNamespace(name);
  if (bool(spec['hostNetwork']) && ns === 'net') return 'net';
  if (bool(spec['hostIPC']) && ns === 'ipc') return 'ipc';
  return undefined;
}

/** component-helpers' sysctl.GetNamespace: which kernel namespace a sysctl belongs to. */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const n = name.replace(/\//g, '.');
  if (n.startsWith('net.')) return 'net';
  if (['kernel.shmall', 'kernel.shmmax', 'kernel.shmmni', 'kernel.shm_rmid_forced'].includes(n)) return 'ipc';
  if (n.startsWith('kernel.sem') || n.startsWith('fs.mqueue.') || n.startsWith('kernel.msg')) return 'ipc';
  return undefined;
}

export function allContainers(spec: Obj): Obj[] {
  return [...objs(spec['containers']), ...objs(spec['initContainers']), ...objs(spec['ephemeralContainers'])];
}

function usesIndivisibleHugePagesValues(spec: Obj): boolean {
  for (const c of allContainers(spec)) {
    const res = obj(c['resources']);
    for (const list of [obj(res?.['limits']), obj(res?.['requests'])]) {
      for (const [name, v] of Object.entries(list ?? {})) {
        if (!isHugePageResourceName(name)) continue;
        const q = parseQuantity(v);
        if (q && !isHugePageValueDivisible(name, q)) return true;
      }
    }
  }
  return false;
}

export function selectorHasInvalidLabelValue(sel: Obj | undefined): boolean {
  return objs(sel?.['matchExpressions']).some((e) => arr(e['values']).some((v) => isValidLabelValue(str(v)).length > 0));
}

function podAffinityTerms(spec: Obj): Obj[] {
  const aff = obj(spec['affinity']);
  const terms: Obj[] = [];
  for (const kind of ['podAffinity', 'podAntiAffinity'] as const) {
    const a = obj(aff?.[kind]);
    terms.push(...objs(a?.['requiredDuringSchedulingIgnoredDuringExecution']));
    terms.push(...objs(a?.['preferredDuringSchedulingIgnoredDuringExecution']).map((w) => obj(w['podAffinityTerm']) ?? {}));
  }
  return terms;
}

function hasInvalidLabelValueInAffinitySelector(spec: Obj): boolean {
  return podAffinityTerms(spec).some(
    (t) => selectorHasInvalidLabelValue(obj(t['labelSelector'])) || selectorHasInvalidLabelValue(obj(t['namespaceSelector'])),
  );
}

function hasInvalidLabelValueInRequiredNodeAffinity(spec: Obj): boolean {
  const na = obj(obj(spec['affinity'])?.['nodeAffinity']);
  const terms = objs(obj(na?.['requiredDuringSchedulingIgnoredDuringExecution'])?.['nodeSelectorTerms']);
  return terms.some((t) => objs(t['matchExpressions']).some((e) => arr(e['values']).some((v) => isValidLabelValue(str(v)).length > 0)));
}

function hasNonLocalProjectedTokenPath(spec: Obj): boolean {
  for (const v of objs(spec['volumes'])) {
    for (const s of objs(obj(v['projected'])?.['sources'])) {
      const path = str(obj(s['serviceAccountToken'])?.['path']);
      if (obj(s['serviceAccountToken']) && (path.startsWith('/') || path.split('/').includes('..') || path.startsWith('..'))) return true;
    }
  }
  return false;
}
