/**
 * Where each kind keeps the pod it makes (DefaultPodSpecExtractor): a pod is itself; workload
 * resources carry a pod template. These resources are checked on create and update; pods are
 * enforced, the others only warned and audited.
 */
import { isObject, type JsonObject, type KubeObject } from '../../../api/types';
import type { PodView } from './pod';
import { own } from '../../../api/own';
import { POD_TEMPLATE_PATHS } from '../../pod-templates';

/** Whether the resource may carry a pod template (pods are handled on their own). */
export const hasPodSpec = (group: string, resource: string): boolean => Object.hasOwn(POD_TEMPLATE_PATHS, `${group}/${resource}`);

const objectOrEmpty = (v: unknown): JsonObject => (isObject(v) ? v : {});

/**
 * The template's metadata and spec, or undefined when the object has none (a
 * ReplicationController's template is optional). Go's value-typed templates read as empty.
 */
export function extractPodSpec(group: string, resource: string, obj: KubeObject): PodView | undefined {
  const path = POD_TEMPLATE_PATHS[`${group}/${resource}`];
  if (!path) return undefined;
  let cur: unknown = obj;
  for (const [i, key] of path.entries()) {
    const next = isObject(cur) ? own(cur, key) : undefined;
    // A pointer template (the last step of a ReplicationController's path) may be nil.
    if ((next === undefined || next === null) && resource === 'replicationcontrollers' && i === path.length - 1) return undefined;
    cur = next;
  }
  const template = objectOrEmpty(cur);
  return { metadata: objectOrEmpty(template.metadata), spec: objectOrEmpty(template.spec) };
}
