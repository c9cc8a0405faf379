/** A cluster (Node,RBAC authorization) with simulated kubelets, for the kubelet tests. */
import { createCluster, type Cluster } from '../../../src/engine/cluster';
import { Kubelet } from '../../../src/engine/kubelet/kubelet';
import { SharedLoad } from '../../../src/engine/kubelet/shared-load';
import type { NodeConfig } from '../../../src/engine/kubelet/config';
import type { Pod } from '../../../src/engine/kubelet/api';
import { CONFIGMAPS, EVENTS, NODES, PODS, SERVICEACCOUNTS } from '../../../src/engine/client/resources';
import type { KubeObject } from '../../../src/engine/api/types';
import type { KubeletRecord } from '../../../src/engine/trace/kubelet';

export interface KubeletHarness {
  cluster: Cluster;
  kubelets: Kubelet[];
  kubelet: Kubelet;
  /** Creates a pod (bound to node-1 unless it names a node) as the admin. */
  createPod(pod: Partial<Pod> & { metadata: Pod['metadata'] }): Promise<Pod>;
  getPod(name: string, namespace?: string): Promise<Pod>;
  deletePod(name: string, options?: { gracePeriodSeconds?: number }): Promise<void>;
  getNode(name?: string): Promise<KubeObject>;
  /** Events (core/v1) in a namespace, oldest first, as "Type Reason message". */
  events(namespace?: string, filter?: (e: CoreEventLike) => boolean): Promise<string[]>;
  rawEvents(namespace?: string): Promise<CoreEventLike[]>;
  records(): KubeletRecord[];
  /** Every version of the pods the API server stores from now on: virtual second, event type, pod. */
  watchPods(): Promise<{ t: number; type: string; pod: Pod }[]>;
  /** Virtual ms since the harness started. */
  elapsed(): number;
  close(): Promise<void>;
}

export interface CoreEventLike extends KubeObject {
  type: string;
  reason: string;
  message: string;
  count: number;
  involvedObject: { kind?: string; name?: string; fieldPath?: string; uid?: string };
  source: { component?: string; host?: string };
  firstTimestamp: string;
  lastTimestamp: string;
}

export function nodeConfig(name: string, index: number, extra: Partial<NodeConfig> = {}): NodeConfig {
  return { name, internalIP: `172.18.0.${index + 2}`, podCIDR: `10.244.${index + 1}.0/24`, zone: 'zone-a', region: 'region-1', ...extra };
}

export async function kubeletHarness(nodes: Partial<NodeConfig>[] = [{}]): Promise<KubeletHarness> {
  // These tests pin the kubelet's own timings (backoffs, probe periods, grace periods) to the
  // virtual second: etcd's requests take no virtual time here.
  const cluster = await createCluster({ seed: 'kubelet-test', bare: true, etcd: { latency: 'instant' } });
  const start = cluster.clock.now();
  const kubelets: Kubelet[] = [];
  const sharedLoad = new SharedLoad();
  for (const [i, extra] of nodes.entries()) {
    const k = new Kubelet({ node: nodeConfig(`node-${i + 1}`, i, extra), server: cluster.server, clock: cluster.clock, random: cluster.random.fork(`node-${i + 1}`), sharedLoad });
    kubelets.push(k);
    await cluster.drive(cluster.add(k));
  }
  const admin = cluster.client();
  // What the service account controller would have made: the namespace's default account.
  await admin.resource(SERVICEACCOUNTS, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } });
  // And what the root CA publisher would have made: the ConfigMap every service-account volume mounts.
  await admin.resource(CONFIGMAPS, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-root-ca.crt', namespace: 'default' }, data: { 'ca.crt': 'simulated' } });
  const pods = (ns = 'default') => admin.resource<Pod>(PODS, ns);
  const rawEvents = async (ns = 'default') => {
    const list = await admin.resource<CoreEventLike>(EVENTS, ns).list();
    return [...list.items].sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion));
  };
  return {
    cluster,
    kubelets,
    kubelet: kubelets[0]!,
    async createPod(pod) {
      const spec = { nodeName: 'node-1', ...(pod.spec ?? {}) };
      return pods(pod.metadata.namespace).create({ apiVersion: 'v1', kind: 'Pod', ...pod, spec } as Pod);
    },
    getPod: (name, ns) => pods(ns).get(name),
    async deletePod(name, options = {}) {
      await pods().delete(name, options);
    },
    getNode: (name = 'node-1') => admin.resource(NODES).get(name),
    rawEvents,
    async events(ns, filter) {
      return (await rawEvents(ns)).filter((e) => !filter || filter(e)).map((e) => `${e.type} ${e.reason} ${e.message}`);
    },
    records: () => cluster.trace.records().filter((r): r is KubeletRecord => r.type === 'kubelet.action'),
    async watchPods() {
      const seen: { t: number; type: string; pod: Pod }[] = [];
      await pods().watch({}, (e) => {
        if (e.type !== 'BOOKMARK') seen.push({ t: (cluster.clock.now() - start) / 1000, type: e.type, pod: e.object as unknown as Pod });
      });
      return seen;
    },
    elapsed: () => cluster.clock.now() - start,
    close: () => cluster.close(),
  };
}
