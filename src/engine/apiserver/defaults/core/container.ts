/**
 * Container defaults (also for init and ephemeral containers): pull policy from the image tag,
 * the termination message file, port protocols, downward-API field versions, resource
 * quantities, probes and lifecycle hooks.
 */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, defaultNil, isEmptyString, objectAt, objectsIn } from '../fields';
import { defaultPullPolicy } from './image-pull-policy';
import { defaultLifecycle, defaultProbe } from './probe';
import { defaultResourceRequirements } from './resource-list';

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'];

export function defaultContainer(container: JsonObject): void {
  if (isEmptyString(container.imagePullPolicy)) {
    const image = container.image;
    container.imagePullPolicy = defaultPullPolicy(typeof image === 'string' ? image : '');
  }
  defaultEmptyString(container, 'terminationMessagePath', '/dev/termination-log');
  defaultEmptyString(container, 'terminationMessagePolicy', 'File');
  for (const port of objectsIn(container, 'ports')) defaultEmptyString(port, 'protocol', 'TCP');
  for (const env of objectsIn(container, 'env')) {
    const valueFrom = objectAt(env, 'valueFrom');
    if (!valueFrom) continue;
    const fieldRef = objectAt(valueFrom, 'fieldRef');
    if (fieldRef) defaultObjectFieldSelector(fieldRef);
    const fileKeyRef = objectAt(valueFrom, 'fileKeyRef');
    if (fileKeyRef) defaultNil(fileKeyRef, 'optional', false);
  }
  defaultResourceRequirements(container, 'resources');
  for (const key of PROBES) {
    const probe = objectAt(container, key);
    if (probe) defaultProbe(probe);
  }
  const lifecycle = objectAt(container, 'lifecycle');
  if (lifecycle) defaultLifecycle(lifecycle);
}

export function defaultObjectFieldSelector(selector: JsonObject): void {
  defaultEmptyString(selector, 'apiVersion', 'v1');
}
