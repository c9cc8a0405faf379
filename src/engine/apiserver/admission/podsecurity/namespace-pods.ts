/**
 * What kube-apiserver warns when a namespace's enforce level is raised: the existing pods that
 * the new level would refuse, one warning per distinct set of failed checks, naming the first
 * pod (by name) and how many others share it. At most 3,000 pods are checked, one pod per
 * controller first so that one big ReplicaSet does not hide everything else.
 */
import type { KubeObject } from '../../../api/types';
import { isObject, type JsonObject } from '../../../api/types';
import type { ObjectReader } from '../../storage/reader';
import { levelVersionString, type LevelVersion } from './api';
import { goCompare } from './pod';
import { forbiddenReason } from './result';
import type { PodSecurity } from './plugin';

export const MAX_PODS_TO_CHECK = 3000;

const PODS = { group: '', resource: 'pods' };

const controllerUid = (pod: KubeObject): string | undefined => pod.metadata.ownerReferences?.find((r) => r.controller === true)?.uid;

const specOf = (pod: KubeObject): JsonObject => (isObject(pod.spec) ? pod.spec : {});

/** Pods of exempt runtime classes are left out; a second pod of a controller goes last. */
function prioritize(psa: PodSecurity, pods: readonly KubeObject[]): KubeObject[] {
  const first: KubeObject[] = [];
  const duplicates: KubeObject[] = [];
  const seen = new Set<string>();
  for (const pod of pods) {
    if (psa.exemptRuntimeClass(specOf(pod))) continue;
    const uid = controllerUid(pod);
    if (uid === undefined) first.push(pod);
    else if (seen.has(uid)) duplicates.push(pod);
    else {
      seen.add(uid);
      first.push(pod);
    }
  }
  return [...first, ...duplicates];
}

export async function evaluatePodsInNamespace(psa: PodSecurity, reader: ObjectReader, namespace: string, enforce: LevelVersion): Promise<string[]> {
  const all = prioritize(psa, [...reader.cached(PODS, namespace)]);
  const checked = all.slice(0, MAX_PODS_TO_CHECK);
  const order: string[] = [];
  const counts = new Map<string, { podName: string; count: number }>();
  for (const pod of checked) {
    const r = psa.evaluate(enforce, { metadata: pod.metadata, spec: specOf(pod) });
    if (r.allowed) continue;
    const warning = forbiddenReason(r);
    const name = pod.metadata.name ?? '';
    const c = counts.get(warning);
    if (!c) {
      counts.set(warning, { podName: name, count: 1 });
      order.push(warning);
    } else {
      if (name < c.podName) c.podName = name;
      c.count++;
    }
  }
  const warnings: string[] = [];
  if (checked.length < all.length) warnings.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${all.length} existing pods`);
  if (order.length > 0) warnings.push(`existing pods in namespace ${JSON.stringify(namespace)} violate the new PodSecurity enforce level ${JSON.stringify(levelVersionString(enforce))}`);
  const decorated = order.map((w) => {
    const c = counts.get(w)!;
    if (c.count === 1) return `${c.podName}: ${w}`;
    if (c.count === 2) return `${c.podName} (and 1 other pod): ${w}`;
    return `${c.podName} (and ${c.count - 1} other pods): ${w}`;
  });
  return [...warnings, ...decorated.sort(goCompare)];
}
