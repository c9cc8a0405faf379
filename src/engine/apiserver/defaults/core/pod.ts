/**
 * Pod defaults. Besides the PodSpec defaults every template gets, a Pod (and only a Pod) gets
 * requests copied from limits, pod-level resource defaults, enableServiceLinks, and, on the
 * host network, host ports equal to the container ports.
 */
import type { JsonObject } from '../../../api/types';
import { defaultNil, isZero, jsonDefaulter, mapToFill, objectAt, objectsIn, structAt } from '../fields';
import { registerDefaulter } from '../registry';
import { defaultHugePagePodLimits, defaultPodRequests } from './pod-level-resources';
import { defaultPodSpec } from './pod-spec';
import { defaultResourceList, defaultResourceRequirements } from './resource-list';
import { setOwn } from '../../../api/own';

export function defaultPod(pod: JsonObject): void {
  const spec = structAt(pod, 'spec');
  if (spec) {
    for (const key of ['containers', 'initContainers']) {
      for (const container of objectsIn(spec, key)) defaultRequestsToLimits(container);
    }
    // Pod-level defaults read the container requests just defaulted above.
    defaultHugePagePodLimits(spec);
    defaultPodRequests(spec);
    defaultNil(spec, 'enableServiceLinks', true);
    if (spec.hostNetwork === true) {
      for (const key of ['containers', 'initContainers']) {
        for (const container of objectsIn(spec, key)) defaultHostPorts(container);
      }
    }
    defaultPodSpec(spec);
  }
  const status = objectAt(pod, 'status');
  if (status) defaultContainerStatuses(status);
}

/** A resource with a limit and no request is requested at its limit. */
function defaultRequestsToLimits(container: JsonObject): void {
  const resources = objectAt(container, 'resources');
  const limits = resources && objectAt(resources, 'limits');
  if (!resources || !limits) return;
  const requests = mapToFill(resources, 'requests');
  if (!requests) return;
  for (const [name, value] of Object.entries(limits)) {
    if (!Object.hasOwn(requests, name) && value !== undefined) setOwn(requests, name, value);
  }
  if (resources.requests !== requests && Object.keys(requests).length > 0) resources.requests = requests;
}

function defaultHostPorts(container: JsonObject): void {
  for (const port of objectsIn(container, 'ports')) {
    if (isZero(port.hostPort) && typeof port.containerPort === 'number' && port.containerPort !== 0) {
      port.hostPort = port.containerPort;
    }
  }
}

function defaultContainerStatuses(status: JsonObject): void {
  for (const key of ['initContainerStatuses', 'containerStatuses', 'ephemeralContainerStatuses']) {
    for (const cs of objectsIn(status, key)) {
      defaultResourceList(cs, 'allocatedResources');
      defaultResourceRequirements(cs, 'resources');
    }
  }
}

registerDefaulter('', 'Pod', jsonDefaulter(defaultPod));
