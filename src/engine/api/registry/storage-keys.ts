/**
 * Where kube-apiserver keeps objects in etcd: /registry/<prefix>/[<namespace>/]<name>.
 *
 * The prefix is the resource name, except for the SpecialDefaultResourcePrefixes of
 * pkg/kubeapiserver/default_storage_factory_builder.go and for the apiextensions-apiserver, whose
 * storage uses "<group>/<resource>" (SimpleStorageFactory in k8s.io/apiserver/pkg/server/options).
 * Cohabiting resources (events.k8s.io events with core events) share the prefix of the resource
 * stored.
 */
import { table } from '../own';

/** --etcd-prefix's default. */
export const ETCD_PREFIX = '/registry';

const SPECIAL_PREFIXES = table<string>({
  replicationcontrollers: 'controllers',
  endpoints: 'services/endpoints',
  nodes: 'minions',
  services: 'services/specs',
  'ingresses.networking.k8s.io': 'ingress',
  'customresourcedefinitions.apiextensions.k8s.io': 'apiextensions.k8s.io/customresourcedefinitions',
  // kube-aggregator's storage, like apiextensions', is "<group>/<resource>".
  'apiservices.apiregistration.k8s.io': 'apiregistration.k8s.io/apiservices',
});

/**
 * Resources whose REST storage is not an etcd store: they are computed per request
 * (pkg/registry/core/componentstatus, pod binding, authentication and authorization reviews).
 */
const NOT_STORED: ReadonlySet<string> = new Set([
  'bindings',
  'componentstatuses',
  'selfsubjectreviews.authentication.k8s.io',
  'tokenreviews.authentication.k8s.io',
  'localsubjectaccessreviews.authorization.k8s.io',
  'selfsubjectaccessreviews.authorization.k8s.io',
  'selfsubjectrulesreviews.authorization.k8s.io',
  'subjectaccessreviews.authorization.k8s.io',
]);

export function storagePrefixFor(groupResource: string, resource: string): string | undefined {
  if (NOT_STORED.has(groupResource)) return undefined;
  return SPECIAL_PREFIXES[groupResource] ?? resource;
}

/** The etcd key of one object; an empty namespace for cluster-scoped objects. */
export function storageKey(prefix: string, namespace: string, name: string): string {
  return namespace ? `${ETCD_PREFIX}/${prefix}/${namespace}/${name}` : `${ETCD_PREFIX}/${prefix}/${name}`;
}

/** The key prefix that lists a resource, across namespaces or within one. */
export function storageListPrefix(prefix: string, namespace = ''): string {
  return namespace ? `${ETCD_PREFIX}/${prefix}/${namespace}/` : `${ETCD_PREFIX}/${prefix}/`;
}
