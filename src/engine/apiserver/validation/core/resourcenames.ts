/**
 * Classification of resource names (pkg/apis/core/helper): which names are standard for
 * containers, quota and limit ranges, which are extended, integer-valued or may be overcommitted.
 */
import { isQualifiedName } from '../../../api/names';
import { parseQuantity, type Quantity } from './quantity';

export const hugePagesPrefix = 'hugepages-';
const requestsHugePagesPrefix = 'requests.hugepages-';
const defaultNamespacePrefix = 'kubernetes.io/';
const requestsPrefix = 'requests.';

export function isHugePageResourceName(name: string): boolean {
  return name.startsWith(hugePagesPrefix);
}

/** Whether a hugepages value is a whole number of pages of the size its name gives. */
export function isHugePageValueDivisible(name: string, q: Quantity): boolean {
  const page = parseQuantity(name.slice(hugePagesPrefix.length));
  if (!page || page.sign() <= 0 || page.milliValue() % 1000 !== 0) return false;
  return q.value() % page.value() === 0;
}

export function isQuotaHugePageResourceName(name: string): boolean {
  return name.startsWith(hugePagesPrefix) || name.startsWith(requestsHugePagesPrefix);
}

/** Unprefixed names and names under kubernetes.io/ belong to Kubernetes itself. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes(defaultNamespacePrefix);
}

export function isExtendedResourceName(name: string): boolean {
  if (isNativeResource(name) || name.startsWith(requestsPrefix)) return false;
  return isQualifiedName(requestsPrefix + name).length === 0;
}

export function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePageResourceName(name);
}

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);

export function isStandardContainerResourceName(name: string): boolean {
  return standardContainerResources.has(name) || isHugePageResourceName(name);
}

const standardLimitRangeTypes = new Set(['Pod', 'Container', 'PersistentVolumeClaim']);

export function isStandardLimitRangeType(name: string): boolean {
  return standardLimitRangeTypes.has(name);
}

const objectCounts = [
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'persistentvolumeclaims',
  'configmaps',
  'services.nodeports',
  'services.loadbalancers',
];

const standardQuotaResources = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.storage',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  ...objectCounts,
]);

export function isStandardQuotaResourceName(name: string): boolean {
  return standardQuotaResources.has(name) || isQuotaHugePageResourceName(name);
}

const standardResources = new Set([...standardQuotaResources, 'storage']);

export function isStandardResourceName(name: string): boolean {
  return standardResources.has(name) || isQuotaHugePageResourceName(name);
}

const integerResources = new Set(objectCounts);

export function isIntegerResourceName(name: string): boolean {
  return integerResources.has(name) || isExtendedResourceName(name);
}

const standardFinalizers = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

export function isStandardFinalizerName(name: string): boolean {
  return standardFinalizers.has(name);
}

const standardQuotaScopes = new Set(['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity']);

export function isStandardResourceQuotaScope(scope: string): boolean {
  return standardQuotaScopes.has(scope);
}

const podComputeQuotaResources = new Set(['cpu', 'memory', 'limits.cpu', 'limits.memory', 'requests.cpu', 'requests.memory']);

export function isResourceQuotaScopeValidForResource(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return resource === 'pods' || podComputeQuotaResources.has(resource);
    case 'BestEffort':
      return resource === 'pods';
    default:
      return true;
  }
}
