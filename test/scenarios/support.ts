/**
 * The full cluster for scenario tests (createCluster: a control-plane node, workers, every
 * controller, the scheduler, kubelets), with the views scenarios assert on: the Events as
 * `kubectl get events` words (from the trace, in the order they were written), each
 * ReplicaSet's spec.replicas over time, and typed reads of the objects.
 */
import { createCluster, type Cluster, type ClusterOptions } from '../../src/engine/cluster';
import { applyManifestText } from '../../src/engine/kubectl/apply';
import { DEPLOYMENTS, ENDPOINTSLICES, NAMESPACES, NODES, PODS, REPLICASETS } from '../../src/engine/client/resources';
import type { KubeObject } from '../../src/engine/api/types';
import type { KubeEventRecord } from '../../src/engine/trace/event';

export interface PodView extends KubeObject {
  spec: { nodeName?: string; containers: { image?: string }[] };
  status?: { phase?: string; podIP?: string; conditions?: { type: string; status: string; reason?: string; message?: string }[] };
}

export interface ReplicaSetView extends KubeObject {
  spec: { replicas?: number; template?: { spec?: { containers?: { image?: string }[] } } };
  status?: { replicas?: number; readyReplicas?: number; availableReplicas?: number };
}

export interface Scenario {
  cluster: Cluster;
  /** Applies YAML as the admin (server-side apply); throws on a failed document. */
  apply(yaml: string): Promise<void>;
  /** Events written since the scenario started: "Normal ScalingReplicaSet Deployment default/web: Scaled up ...". */
  events(filter?: (e: KubeEventRecord) => boolean): string[];
  /** Every change of a ReplicaSet's spec.replicas, in order: "web-5d9c7b: 0 -> 3". */
  scaleSteps(): string[];
  pods(namespace?: string): Promise<PodView[]>;
  replicaSets(namespace?: string): Promise<ReplicaSetView[]>;
  get<T extends KubeObject = KubeObject>(resource: 'deployments' | 'nodes' | 'namespaces' | 'endpointslices', name: string, namespace?: string): Promise<T>;
  /** Virtual seconds since the scenario started. */
  elapsed(): number;
  close(): Promise<void>;
}

const RESOURCES = { deployments: DEPLOYMENTS, nodes: NODES, namespaces: NAMESPACES, endpointslices: ENDPOINTSLICES };

export async function scenario(options: ClusterOptions = {}): Promise<Scenario> {
  const cluster = await createCluster({ seed: 'scenario', traceCapacity: 200_000, ...options });
  const admin = cluster.client();
  const start = cluster.clock.now();
  const first = cluster.trace.next;
  const steps: string[] = [];
  const sizes = new Map<string, number>();
  await admin.resource<ReplicaSetView>(REPLICASETS).watch({}, (e) => {
    if (e.type === 'BOOKMARK' || e.type === 'ERROR') return;
    const rs = e.object as unknown as ReplicaSetView;
    const name = rs.metadata.name ?? '';
    const size = e.type === 'DELETED' ? undefined : rs.spec.replicas ?? 1;
    const before = sizes.get(name);
    if (size === before) return;
    if (size === undefined) sizes.delete(name);
    else sizes.set(name, size);
    steps.push(`${name}: ${before ?? '-'} -> ${size ?? 'deleted'}`);
  });
  return {
    cluster,
    async apply(yaml) {
      for (const r of await applyManifestText(admin, 'scenario.yaml', yaml)) if (r.action === 'failed') throw new Error(r.message);
    },
    events(filter) {
      return cluster.trace
        .since(first)
        .filter((r): r is KubeEventRecord => r.type === 'kube.event' && (!filter || filter(r)))
        .map((e) => `${e.eventType} ${e.reason} ${e.regarding}: ${e.message}`);
    },
    scaleSteps: () => [...steps],
    pods: async (ns = 'default') => (await admin.resource<PodView>(PODS, ns).list()).items,
    replicaSets: async (ns = 'default') => (await admin.resource<ReplicaSetView>(REPLICASETS, ns).list()).items,
    get: (resource, name, ns) => admin.resource(RESOURCES[resource], resource === 'nodes' || resource === 'namespaces' ? undefined : ns ?? 'default').get(name) as never,
    elapsed: () => (cluster.clock.now() - start) / 1000,
    close: () => cluster.close(),
  };
}

/** A Deployment of `replicas` nginx pods labelled app=<name>, with a readiness probe. */
export function deployment(name: string, replicas: number, extra: { image?: string; strategy?: string; annotations?: Record<string, string>; namespace?: string } = {}): string {
  const strategy = extra.strategy ?? '';
  const annotations = Object.entries(extra.annotations ?? {})
    .map(([k, v]) => `\n        ${k}: ${JSON.stringify(v)}`)
    .join('');
  return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${extra.namespace ?? 'default'}
spec:
  replicas: ${replicas}
  selector:
    matchLabels:
      app: ${name}${strategy}
  template:
    metadata:
      labels:
        app: ${name}${annotations ? `\n      annotations:${annotations}` : ''}
    spec:
      containers:
      - name: web
        image: ${extra.image ?? 'nginx:1.27'}
        ports:
        - name: http
          containerPort: 80
        resources:
          requests:
            cpu: 100m
            memory: 64Mi
        readinessProbe:
          httpGet:
            path: /
            port: http
          periodSeconds: 5
`;
}

export function service(name: string, namespace = 'default'): string {
  return `apiVersion: v1
kind: Service
metadata:
  name: ${name}
  namespace: ${namespace}
spec:
  selector:
    app: ${name}
  ports:
  - name: http
    port: 80
    targetPort: http
`;
}
