/**
 * metrics-server's REST storage (pkg/api): get and list of PodMetrics and NodeMetrics from the
 * pods and nodes its informers know (pods only while Running) and the usage its storage holds.
 * A pod or node with no usage yet is left out of lists and NotFound on get; lists are sorted by
 * namespace and name. Label selectors select the pods or nodes; field selectors take
 * metadata.name (and for pods metadata.namespace), as the generic API server converts them.
 */
import { listSelectors, type ListSelectors } from '../../api/list-selectors';
import { Quantity } from '../../api/quantity';
import { notFoundError, StatusError } from '../../api/status';
import type { JsonObject, KubeObject } from '../../api/types';
import type { AggregatedRequest, AggregatedResult } from '../../apiserver/aggregator';
import { formatGoDuration } from '../../api/duration';
import { METRICS_API_VERSION, METRICS_GROUP } from './resources';
import type { ContainerUsage, Usage } from './storage';

export interface MetricsSources {
  /** The Running pods, from the metadata informer. */
  pods(namespace: string | undefined): readonly KubeObject[];
  pod(namespace: string, name: string): KubeObject | undefined;
  nodes(): readonly KubeObject[];
  node(name: string): KubeObject | undefined;
  /** The containers' usage of a pod ("<namespace>/<name>"), once it has two points. */
  podUsage(key: string): ContainerUsage[] | undefined;
  nodeUsage(name: string): Usage | undefined;
  /** RFC 3339 seconds, for a time or now. */
  rfc3339(ms?: number): string;
}

const cpuQuantity = (nanocores: number): Quantity => Quantity.scaled(BigInt(nanocores), -9, 'DecimalSI');
const memoryQuantity = (bytes: number): Quantity => Quantity.fromInt(bytes, 'BinarySI');

function usageJson(u: Pick<Usage, 'cpu' | 'memory'>): JsonObject {
  return { cpu: cpuQuantity(u.cpu).toString(), memory: memoryQuantity(u.memory).toString() };
}

function selectors(request: AggregatedRequest, kind: string): ListSelectors {
  // DefaultMetaV1FieldSelectorConversion: metadata.name and metadata.namespace only.
  return listSelectors(request.labelSelector, request.fieldSelector, METRICS_GROUP, kind);
}

function fieldSet(obj: KubeObject, withNamespace: boolean): Record<string, string> {
  const set: Record<string, string> = { 'metadata.name': obj.metadata.name ?? '' };
  if (withNamespace) set['metadata.namespace'] = obj.metadata.namespace ?? '';
  return set;
}

const byNamespaceAndName = (a: JsonObject, b: JsonObject): number => {
  const ma = a.metadata as { namespace?: string; name?: string };
  const mb = b.metadata as { namespace?: string; name?: string };
  const na = ma.namespace ?? '';
  const nb = mb.namespace ?? '';
  if (na !== nb) return na < nb ? -1 : 1;
  return (ma.name ?? '') < (mb.name ?? '') ? -1 : (ma.name ?? '') > (mb.name ?? '') ? 1 : 0;
};

export class MetricsApi {
  constructor(private readonly src: MetricsSources) {}

  serve(request: AggregatedRequest): Promise<AggregatedResult> {
    const result = request.resource === 'pods' ? this.pods(request) : this.nodes(request);
    return Promise.resolve(result);
  }

  private podMetrics(pod: KubeObject, containers: readonly ContainerUsage[]): JsonObject {
    // The earliest container point times the pod's sample.
    let earliest = containers[0];
    for (const c of containers) if (earliest && c.timestamp < earliest.timestamp) earliest = c;
    const metadata: JsonObject = { name: pod.metadata.name ?? '', namespace: pod.metadata.namespace ?? '', creationTimestamp: this.src.rfc3339() };
    if (pod.metadata.labels) metadata.labels = { ...pod.metadata.labels };
    return {
      kind: 'PodMetrics',
      apiVersion: METRICS_API_VERSION,
      metadata,
      timestamp: earliest ? this.src.rfc3339(earliest.timestamp) : this.src.rfc3339(0),
      window: formatGoDuration(earliest?.windowMs ?? 0),
      // Go's map order upstream; here by container name.
      containers: [...containers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((c) => ({ name: c.name, usage: usageJson(c) })),
    };
  }

  private nodeMetrics(node: KubeObject, u: Usage): JsonObject {
    const metadata: JsonObject = { name: node.metadata.name ?? '', creationTimestamp: this.src.rfc3339() };
    if (node.metadata.labels) metadata.labels = { ...node.metadata.labels };
    return { kind: 'NodeMetrics', apiVersion: METRICS_API_VERSION, metadata, timestamp: this.src.rfc3339(u.timestamp), window: formatGoDuration(u.windowMs), usage: usageJson(u) };
  }

  private pods(request: AggregatedRequest): AggregatedResult {
    const namespace = request.namespace ?? '';
    if (request.verb === 'get') {
      const name = request.name ?? '';
      const pod = this.src.pod(namespace, name);
      // The pod lister's NotFound, then metrics-server's own for a pod without metrics.
      if (!pod) throw notFoundError({ group: '', name: 'pods' }, name);
      const usage = this.src.podUsage(`${namespace}/${name}`);
      if (!usage) throw notFoundError({ group: METRICS_GROUP, name: 'podmetrics' }, `${namespace}/${name}`);
      return { code: 200, body: this.podMetrics(pod, usage) };
    }
    const { labels, fields } = selectors(request, 'PodMetrics');
    const items: JsonObject[] = [];
    for (const pod of this.src.pods(namespace || undefined)) {
      if (!labels.matches(pod.metadata.labels ?? {}) || !fields.matches(fieldSet(pod, true))) continue;
      const usage = this.src.podUsage(`${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`);
      if (usage) items.push(this.podMetrics(pod, usage));
    }
    items.sort(byNamespaceAndName);
    return { code: 200, body: { kind: 'PodMetricsList', apiVersion: METRICS_API_VERSION, metadata: {}, items } };
  }

  private nodes(request: AggregatedRequest): AggregatedResult {
    if (request.verb === 'get') {
      const name = request.name ?? '';
      const node = this.src.node(name);
      // The typed node lister names the resource in the singular.
      if (!node) throw new StatusError({ code: 404, reason: 'NotFound', message: `node "${name}" not found`, details: { name, kind: 'node' } });
      const usage = this.src.nodeUsage(name);
      if (!usage) throw notFoundError({ group: METRICS_GROUP, name: 'nodemetrics' }, name);
      return { code: 200, body: this.nodeMetrics(node, usage) };
    }
    const { labels, fields } = selectors(request, 'NodeMetrics');
    const items: JsonObject[] = [];
    for (const node of this.src.nodes()) {
      if (!labels.matches(node.metadata.labels ?? {}) || !fields.matches(fieldSet(node, false))) continue;
      const usage = this.src.nodeUsage(node.metadata.name ?? '');
      if (usage) items.push(this.nodeMetrics(node, usage));
    }
    items.sort(byNamespaceAndName);
    return { code: 200, body: { kind: 'NodeMetricsList', apiVersion: METRICS_API_VERSION, metadata: {}, items } };
  }
}
