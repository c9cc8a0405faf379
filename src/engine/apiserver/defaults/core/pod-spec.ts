/**
 * PodSpec defaults, applied wherever a PodSpec appears (pods and every pod template). Only the
 * PodSpec-level fields upstream defaults for all PodSpecs are here; pod-only defaults
 * (requests from limits, enableServiceLinks, host ports) are in pod.ts, so templates stay free
 * of them as in Kubernetes.
 */
import type { JsonObject } from '../../../api/types';
import { defaultEmptyString, defaultNil, objectAt, objectsIn, structAt } from '../fields';
import { defaultContainer } from './container';
import { defaultResourceList, defaultResourceRequirements } from './resource-list';
import { defaultVolume } from './volume';

const defaultTerminationGracePeriodSeconds = 30;

export function defaultPodSpec(spec: JsonObject): void {
  // Conversion to the internal PodSpec: the deprecated serviceAccount names the account when serviceAccountName does not.
  if (!spec.serviceAccountName && typeof spec.serviceAccount === 'string' && spec.serviceAccount !== '') spec.serviceAccountName = spec.serviceAccount;
  defaultEmptyString(spec, 'dnsPolicy', 'ClusterFirst');
  defaultEmptyString(spec, 'restartPolicy', 'Always');
  defaultNil(spec, 'securityContext', {});
  defaultNil(spec, 'terminationGracePeriodSeconds', defaultTerminationGracePeriodSeconds);
  defaultEmptyString(spec, 'schedulerName', 'default-scheduler');
  for (const volume of objectsIn(spec, 'volumes')) defaultVolume(volume);
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const container of objectsIn(spec, key)) defaultContainer(container);
  }
  defaultResourceList(spec, 'overhead');
  defaultResourceRequirements(spec, 'resources');
}

/** A PodTemplateSpec held in a struct field (key) of holder: defaults its spec. */
export function defaultPodTemplateIn(holder: JsonObject, key: string): void {
  const template = structAt(holder, key);
  const spec = template && structAt(template, 'spec');
  if (spec) defaultPodSpec(spec);
}

/** The same for a pointer field (ReplicationController's template): only when present. */
export function defaultOptionalPodTemplateIn(holder: JsonObject, key: string): void {
  const template = objectAt(holder, key);
  const spec = template && structAt(template, 'spec');
  if (spec) defaultPodSpec(spec);
}
