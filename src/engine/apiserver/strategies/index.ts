/**
 * The strategy for each served resource. Most resources are generic; the table says which
 * track metadata.generation, may be created by PUT, or answer DELETE with the object, as their
 * registries in pkg/registry do.
 */
import type { ResourceInfo } from '../resources';
import { apiServiceStrategy } from './api-service';
import { withPodWarnings } from './template-warnings';
import { customResourceDefinitionStrategy } from './custom-resource-definition';
import { genericStrategy, type GenericOptions } from './generic';
import { namespaceStrategy } from './namespace';
import { podStrategy } from './pod';
import { serviceStrategy, type ServiceAllocators } from './service/strategy';
import type { Strategy } from './types';
import { daemonSetStrategy, jobStrategy } from './workloads';
import { own } from '../../api/own';

const zeroPDBStatus = () => ({ currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 });

const options: Record<string, GenericOptions> = {
  'apps/deployments': { generation: true },
  'apps/replicasets': { generation: true },
  'apps/statefulsets': { generation: true },
  'apps/controllerrevisions': {},
  'batch/cronjobs': { generation: true },
  'autoscaling/horizontalpodautoscalers': { generation: true, emptyStatus: () => ({ desiredReplicas: 0 }) },
  'policy/poddisruptionbudgets': { generation: true, emptyStatus: zeroPDBStatus },
  'networking.k8s.io/ingresses': { generation: true, emptyStatus: () => ({ loadBalancer: {} }) },
  'networking.k8s.io/networkpolicies': { generation: true },
  'discovery.k8s.io/endpointslices': { generation: true },
  'admissionregistration.k8s.io/validatingwebhookconfigurations': { generation: true },
  'admissionregistration.k8s.io/mutatingwebhookconfigurations': { generation: true },
  'admissionregistration.k8s.io/validatingadmissionpolicies': { generation: true },
  'admissionregistration.k8s.io/validatingadmissionpolicybindings': { generation: true },
  '/nodes': { keepStatusOnCreate: true },
  '/events': { allowCreateOnUpdate: true, garbageCollected: false },
  'events.k8s.io/events': { allowCreateOnUpdate: true, garbageCollected: false },
  'coordination.k8s.io/leases': { allowCreateOnUpdate: true },
  '/serviceaccounts': { returnDeletedObject: true },
  '/persistentvolumes': { emptyStatus: (now) => ({ phase: 'Pending', lastPhaseTransitionTime: now }) },
  'storage.k8s.io/storageclasses': { returnDeletedObject: true },
  'scheduling.k8s.io/priorityclasses': { returnDeletedObject: true },
};

export function strategyFor(type: ResourceInfo, allocators: ServiceAllocators): Strategy {
  const id = `${type.group}/${type.resource}`;
  return withPodWarnings(id, baseStrategy(id, type, allocators));
}

function baseStrategy(id: string, type: ResourceInfo, allocators: ServiceAllocators): Strategy {
  if (id === '/pods') return podStrategy(type);
  if (id === '/services') return serviceStrategy(type, allocators);
  if (id === '/namespaces') return namespaceStrategy(type);
  if (id === 'batch/jobs') return jobStrategy(type);
  if (id === 'apps/daemonsets') return daemonSetStrategy(type);
  if (id === 'apiextensions.k8s.io/customresourcedefinitions') return customResourceDefinitionStrategy(type);
  if (id === 'apiregistration.k8s.io/apiservices') return apiServiceStrategy(type);
  return genericStrategy(type, own(options, id));
}
