/**
 * What metrics-server serves: metrics.k8s.io/v1beta1 pods (PodMetrics) and nodes (NodeMetrics),
 * get and list only, with the discovery entries its API server lists (no singular names, no
 * short names) and the APIService it registers.
 */
import type { ResourceInfo } from '../../api/registry/types';

export const METRICS_GROUP = 'metrics.k8s.io';
export const METRICS_VERSION = 'v1beta1';
export const METRICS_API_VERSION = `${METRICS_GROUP}/${METRICS_VERSION}`;
/** The APIService: <version>.<group>. */
export const METRICS_APISERVICE = `${METRICS_VERSION}.${METRICS_GROUP}`;

const VERBS = ['get', 'list'];

const info = (resource: string, kind: string, namespaced: boolean): ResourceInfo => ({
  group: METRICS_GROUP,
  version: METRICS_VERSION,
  kind,
  listKind: `${kind}List`,
  resource,
  namespaced,
  verbs: VERBS,
  subresources: [],
  singular: '',
  shortNames: [],
  categories: [],
});

export const POD_METRICS = info('pods', 'PodMetrics', true);
export const NODE_METRICS = info('nodes', 'NodeMetrics', false);
export const METRICS_RESOURCES: readonly ResourceInfo[] = [NODE_METRICS, POD_METRICS];
