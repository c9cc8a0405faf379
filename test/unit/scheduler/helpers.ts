/**
 * Plugin test harness: NodeInfos built like upstream's cache.NewSnapshot(pods, nodes), a Handle
 * over them, and helpers running one plugin's PreFilter+Filter or PreScore+Score+NormalizeScore.
 */
import { strict as assert } from 'node:assert';
import { Clock } from '../../../src/engine/clock';
import { Random } from '../../../src/engine/random';
import type { Namespace, Node, Pod, Service } from '../../../src/engine/scheduler/api';
import { NodeInfo } from '../../../src/engine/scheduler/cache/node-info';
import { PodInfo } from '../../../src/engine/scheduler/cache/pod-info';
import { Snapshot } from '../../../src/engine/scheduler/cache/snapshot';
import { CycleState } from '../../../src/engine/scheduler/framework/cycle-state';
import { NodeNames, type AnyPlugin, type FrameworkRunner, type Handle } from '../../../src/engine/scheduler/framework/interface';
import { CODE_NAMES, Code, type Status } from '../../../src/engine/scheduler/framework/status';
import type { SchedulerHost, SchedulerListers } from '../../../src/engine/scheduler/host';

let uid = 0;

/** A pod with the fields the plugin tests set; missing names and uids are filled in. */
export function pod(p: { name?: string; namespace?: string; labels?: Record<string, string>; nodeName?: string; spec?: Partial<Pod['spec']>; status?: Pod['status']; metadata?: Partial<Pod['metadata']> } = {}): Pod {
  const n = ++uid;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: p.name ?? `pod-${n}`, namespace: p.namespace ?? '', uid: `uid-${n}`, ...(p.labels ? { labels: p.labels } : {}), ...(p.metadata ?? {}) },
    spec: { containers: [], ...(p.nodeName ? { nodeName: p.nodeName } : {}), ...(p.spec ?? {}) },
    ...(p.status ? { status: p.status } : {}),
  };
}

/** A container per request map, as st.MakePod().Req(...).Req(...) builds them. */
export const containers = (...reqs: Record<string, string>[]): Pod['spec']['containers'] =>
  reqs.map((requests, i) => ({ name: `c${i}`, resources: { requests } }));

export function node(name: string, p: { labels?: Record<string, string>; allocatable?: Record<string, string>; taints?: NonNullable<Node['spec']>['taints']; unschedulable?: boolean; images?: { names: string[]; sizeBytes: number }[] } = {}): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, ...(p.labels ? { labels: p.labels } : {}) },
    spec: { ...(p.taints ? { taints: p.taints } : {}), ...(p.unschedulable ? { unschedulable: true } : {}) },
    status: { ...(p.allocatable ? { allocatable: p.allocatable, capacity: p.allocatable } : {}), ...(p.images ? { images: p.images } : {}) },
  };
}

/** cache.NewSnapshot: NodeInfos for the nodes, with the pods placed by spec.nodeName. */
export function snapshot(nodes: readonly Node[], pods: readonly Pod[] = []): Snapshot {
  const s = new Snapshot();
  for (const n of nodes) {
    const info = new NodeInfo();
    info.setNode(n);
    const images = new Map<string, { size: number; nodes: Set<string> }>();
    for (const other of nodes) {
      for (const img of other.status?.images ?? []) {
        for (const name of img.names ?? []) {
          const st = images.get(name) ?? { size: img.sizeBytes ?? 0, nodes: new Set<string>() };
          st.nodes.add(other.metadata.name);
          images.set(name, st);
        }
      }
    }
    info.imageStates = new Map([...images].filter(([, st]) => st.nodes.has(n.metadata.name)));
    s.nodeInfoMap.set(n.metadata.name, info);
    s.list.push(info);
  }
  for (const p of pods) s.get(p.spec.nodeName ?? '')?.addPod(new PodInfo(p));
  s.rebuildAffinityLists();
  return s;
}

export interface HandleOptions {
  snapshot: Snapshot;
  services?: Service[];
  namespaces?: Namespace[];
}

export function handle(o: HandleOptions): Handle {
  const listers: SchedulerListers = {
    namespace: (name) => o.namespaces?.find((n) => n.metadata.name === name),
    namespaces: () => o.namespaces ?? [],
    services: (ns) => (o.services ?? []).filter((s) => (s.metadata.namespace ?? '') === ns),
    replicaSet: () => undefined,
    statefulSet: () => undefined,
    replicationController: () => undefined,
    podDisruptionBudgets: () => [],
    persistentVolumeClaim: () => undefined,
    persistentVolume: () => undefined,
    storageClass: () => undefined,
  };
  return {
    clock: new Clock(0),
    random: new Random('test'),
    host: { listers } as SchedulerHost,
    listers,
    snapshot: () => o.snapshot,
    nominatedPodsForNode: () => [],
    framework: () => ({}) as FrameworkRunner,
    activate: () => undefined,
    latestPod: () => undefined,
    clearNominatedNodeName: () => undefined,
  };
}

export type Verdict = { code: string; reasons: readonly string[] } | 'Success';

const summarize = (s: Status | null): Verdict => (s === null || s.code === Code.Success ? 'Success' : { code: CODE_NAMES[s.code], reasons: s.reasons });

/** PreFilter then Filter on one node, as the framework runs a single plugin. */
export function runFilter(plugin: AnyPlugin, p: Pod, nodeInfo: NodeInfo, all: readonly NodeInfo[] = [nodeInfo]): Verdict {
  const state = new CycleState();
  const pi = new PodInfo(p);
  if (plugin.preFilter) {
    const r = plugin.preFilter(state, pi, all);
    if (r instanceof NodeNames) {
      if (!r.names.has(nodeInfo.name)) return { code: 'UnschedulableAndUnresolvable', reasons: ['(excluded by PreFilter result)'] };
    } else if (r !== null && r.code === Code.Skip) {
      return 'Success';
    } else if (r !== null && r.code !== Code.Success) {
      return summarize(r);
    }
  }
  return summarize(plugin.filter!(state, pi, nodeInfo));
}

/** PreScore, Score for every node, NormalizeScore: the final (unweighted) scores, or 'Skip'. */
export function runScore(plugin: AnyPlugin, p: Pod, nodes: readonly NodeInfo[]): number[] | 'Skip' {
  const state = new CycleState();
  const pi = new PodInfo(p);
  if (plugin.preScore) {
    const s = plugin.preScore(state, pi, nodes);
    if (s !== null && s.code === Code.Skip) return 'Skip';
  }
  const scores = new Float64Array(nodes.map((n) => plugin.score!(state, pi, n)));
  if (plugin.scoreNodes) {
    // The plugin's own loop over the nodes (what the framework runs) gives what score gives node by node.
    const batch = new Float64Array(nodes.length);
    plugin.scoreNodes(state, pi, nodes, batch);
    assert.deepEqual([...batch], [...scores], `${plugin.name}: scoreNodes differs from score`);
  }
  plugin.normalizeScore?.(state, pi, scores, nodes);
  return [...scores];
}
