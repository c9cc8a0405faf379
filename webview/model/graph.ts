/**
 * The object graph's model: the workload and networking objects of the cluster state at one
 * revision (webview/model/history.ts) and how they are tied together, read off their stored
 * views only:
 *
 *     Deployment ──owner──▶ ReplicaSet ──owner──▶ Pod ◀──routing── EndpointSlice ◀──owner── Service
 *                                                   ◀─────────────selector (no endpoint yet)──────┘
 *
 * - owner edges are metadata.ownerReferences (the controller reference, matched by uid);
 * - routing edges are an EndpointSlice's endpoints' targetRefs, one per endpoint, in the
 *   endpoint's conditions (ready, serving, terminating);
 * - selector edges are a Service's spec.selector matching a pod's labels where no endpoint of
 *   the Service routes to the pod yet (a pod without an IP is selected but not an endpoint).
 *
 * Objects sit in five columns (Deployments, ReplicaSets, Pods, EndpointSlices, Services) and, in
 * each column, in an order fixed here so that the layout (webview/model/graph-layout.ts) keeps
 * it: a Deployment's ReplicaSets newest revision first (the new one on top, old ones below it),
 * pods under their ReplicaSet in the order they were created, slices and Services beside the
 * pods they route. A rolling update then moves the old ReplicaSet down as the new one appears
 * above it, and the old pods stay, Terminating, until their delete is stored.
 *
 * Which ReplicaSet is "new" is what the Deployment controller stored: the one whose
 * deployment.kubernetes.io/revision equals the Deployment's (the controller sets the
 * Deployment's revision to its new ReplicaSet's). Nothing else is inferred.
 */
import type { DeploymentView, EndpointSliceView, EndpointView, PodView, ReplicaSetView, ServiceView, WorkloadView } from '../../src/protocol/cluster-state';
import { viewKey } from '../../src/protocol/cluster-state';
import type { ClusterState } from './history';
import { TONE_COLORS, type ColorName } from './colors';
import { podTone, TONE_LABELS, type PodTone } from './tones';

export const GRAPH_KINDS = ['Deployment', 'CronJob', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'Job', 'Pod', 'EndpointSlice', 'Service'] as const;
export type GraphKind = (typeof GRAPH_KINDS)[number];

/**
 * The column each kind sits in, left to right: the owners of pod owners (Deployments,
 * CronJobs), the pods' owners (ReplicaSets, StatefulSets, DaemonSets, Jobs), pods, slices,
 * Services.
 */
export const COLUMN: Readonly<Record<GraphKind, number>> = { Deployment: 0, CronJob: 0, ReplicaSet: 1, StatefulSet: 1, DaemonSet: 1, Job: 1, Pod: 2, EndpointSlice: 3, Service: 4 };
/** A column's heading names the kinds it shows. */
export const KIND_TITLES: Readonly<Record<GraphKind, string>> = { Deployment: 'Deployments', CronJob: 'CronJobs', ReplicaSet: 'ReplicaSets', StatefulSet: 'StatefulSets', DaemonSet: 'DaemonSets', Job: 'Jobs', Pod: 'Pods', EndpointSlice: 'EndpointSlices', Service: 'Services' };

/** Characters of a heading that fit a column (uppercase, 11px). */
const COLUMN_TITLE_MAX = 30;

/** The heading of each column present: the kinds it holds, in GRAPH_KINDS order ("ReplicaSets · Jobs"). */
export function columnTitles(model: GraphModel): Map<number, string> {
  const kinds = new Map<number, Set<GraphKind>>();
  for (const n of model.nodes) {
    const set = kinds.get(n.column) ?? new Set<GraphKind>();
    set.add(n.kind);
    kinds.set(n.column, set);
  }
  const out = new Map<number, string>();
  for (const [c, set] of kinds) {
    const title = GRAPH_KINDS.filter((k) => set.has(k)).map((k) => KIND_TITLES[k]).join(' · ');
    // A heading wider than its column would run into the next one: the column's role instead
    // (each box names its kind).
    out.set(c, title.length <= COLUMN_TITLE_MAX ? title : c === COLUMN.Pod - 1 ? 'Pod owners' : 'Owners');
  }
  return out;
}

/** Box sizes, world units (CSS pixels at zoom 1). */
export const SIZE = {
  Deployment: { w: 236, h: 96 },
  ReplicaSet: { w: 236, h: 92 },
  Pod: { w: 236, h: 50 },
  EndpointSlice: { w: 250, h: 54 },
  Service: { w: 230, h: 82 },
  StatefulSet: { w: 236, h: 92 },
  DaemonSet: { w: 236, h: 92 },
  Job: { w: 236, h: 92 },
  CronJob: { w: 236, h: 66 },
  endpointRow: 22,
} as const;

export interface Bar {
  readonly label: string;
  readonly value: number;
  /** The bar's full length stands for this many replicas. */
  readonly of: number;
  readonly color: ColorName;
}

export interface EndpointRow {
  /** "<slice id>#<index>": the row's port in the layout. */
  readonly id: string;
  readonly address: string;
  readonly ready: boolean;
  readonly serving: boolean;
  readonly terminating: boolean;
  /** "ready", "not ready", "terminating, serving", "terminating". */
  readonly condition: string;
  readonly color: ColorName;
  /** The pod it routes to (its graph id), when the targetRef names a pod that is drawn. */
  readonly target?: string;
  readonly targetName?: string;
  readonly node?: string;
}

export interface GraphNode {
  /** viewKey: "ReplicaSet/default/web-7d4b9c". */
  readonly id: string;
  readonly kind: GraphKind;
  readonly name: string;
  readonly namespace: string;
  readonly column: number;
  /** Position in its column, top to bottom. */
  order: number;
  readonly w: number;
  readonly h: number;
  /** The short status word on the box, and the colour it is drawn in. */
  readonly status: string;
  readonly color: ColorName;
  /** The lines under the name. */
  readonly lines: readonly string[];
  readonly bars: readonly Bar[];
  /** A full sentence for the tooltip and screen readers (kubectl's words where it has them). */
  readonly detail: string;
  /** ReplicaSets of a Deployment: which one the Deployment controller rolls out to. */
  readonly role?: 'new' | 'old';
  readonly revision?: number;
  /** Deployments: a rollout is in progress (kubectl rollout status would wait). */
  readonly rollingOut?: boolean;
  readonly tone?: PodTone;
  readonly deleting: boolean;
  readonly endpoints?: readonly EndpointRow[];
}

export type EdgeType = 'owner' | 'selector' | 'routing';

export interface GraphEdge {
  readonly id: string;
  readonly type: EdgeType;
  /** Owner edges: from the owner to what it owns; routing and selector edges: from the slice or Service to the pod. */
  readonly from: string;
  readonly to: string;
  /** Routing edges leave from their endpoint's row. */
  readonly fromPort?: string;
  readonly color: ColorName;
  /** Routing edges: the endpoint's conditions. */
  readonly condition?: string;
}

export interface GraphModel {
  readonly revision: number;
  readonly nodes: readonly GraphNode[];
  readonly byId: ReadonlyMap<string, GraphNode>;
  readonly edges: readonly GraphEdge[];
  readonly namespaces: readonly string[];
  /** Objects in the state before the namespace filter. */
  readonly total: number;
}

export interface GraphOptions {
  /** '' for every namespace. */
  readonly namespace: string;
  /** The revision an object was created at (its first stored version), for the order of pods; undefined when not known. */
  readonly born?: (kind: GraphKind, namespace: string, name: string) => number | undefined;
}

const id = (kind: GraphKind, namespace: string | undefined, name: string): string => viewKey(kind, namespace, name);

/** kubectl rollout status's words for a Deployment (polymorphichelpers' DeploymentStatusViewer). */
export function rolloutStatus(d: DeploymentView): { done: boolean; failed: boolean; message: string } {
  if (d.generation > d.observedGeneration) return { done: false, failed: false, message: 'Waiting for deployment spec update to be observed...' };
  const progressing = d.conditions.find((c) => c.type === 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') return { done: false, failed: true, message: `deployment "${d.name}" exceeded its progress deadline` };
  if (d.updatedReplicas < d.replicas) return { done: false, failed: false, message: `Waiting for deployment "${d.name}" rollout to finish: ${d.updatedReplicas} out of ${d.replicas} new replicas have been updated...` };
  if (d.statusReplicas > d.updatedReplicas) return { done: false, failed: false, message: `Waiting for deployment "${d.name}" rollout to finish: ${d.statusReplicas - d.updatedReplicas} old replicas are pending termination...` };
  if (d.availableReplicas < d.updatedReplicas) return { done: false, failed: false, message: `Waiting for deployment "${d.name}" rollout to finish: ${d.availableReplicas} of ${d.updatedReplicas} updated replicas are available...` };
  return { done: true, failed: false, message: `deployment "${d.name}" successfully rolled out` };
}

/** An endpoint's conditions as EndpointSlice consumers read them: ready unset counts as ready, serving unset as ready. */
export function endpointCondition(e: EndpointView): { ready: boolean; serving: boolean; terminating: boolean; condition: string; color: ColorName } {
  const ready = e.ready ?? true;
  const serving = e.serving ?? ready;
  const terminating = e.terminating ?? false;
  if (terminating) return { ready, serving, terminating, condition: serving ? 'terminating, serving' : 'terminating', color: 'purple' };
  return ready ? { ready, serving, terminating, condition: 'ready', color: 'green' } : { ready, serving, terminating, condition: 'not ready', color: 'yellow' };
}

function selects(selector: Readonly<Record<string, string>> | undefined, labels: Readonly<Record<string, string>>): boolean {
  if (!selector) return false;
  const keys = Object.keys(selector);
  // A Service with an empty selector selects nothing (the endpoints controllers skip it).
  if (keys.length === 0) return false;
  for (const k of keys) if (!Object.hasOwn(labels, k) || labels[k] !== selector[k]) return false;
  return true;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export function buildGraph(state: ClusterState, options: GraphOptions): GraphModel {
  const ns = options.namespace;
  const inNs = (v: { namespace?: string }): boolean => ns === '' || (v.namespace ?? '') === ns;
  const namespaces = new Set<string>();
  const deployments: DeploymentView[] = [];
  const replicaSets: ReplicaSetView[] = [];
  const pods: PodView[] = [];
  const slices: EndpointSliceView[] = [];
  const services: ServiceView[] = [];
  const statefulSets: WorkloadView[] = [];
  const daemonSets: WorkloadView[] = [];
  const jobs: WorkloadView[] = [];
  const cronJobs: WorkloadView[] = [];
  let total = 0;
  const collect = <T extends { namespace?: string }>(from: ReadonlyMap<string, T>, into: T[]): void => {
    for (const v of from.values()) {
      total++;
      namespaces.add(v.namespace ?? '');
      if (inNs(v)) into.push(v);
    }
  };
  collect(state.deployments, deployments);
  collect(state.replicaSets, replicaSets);
  collect(state.pods, pods);
  collect(state.endpointSlices, slices);
  collect(state.services, services);
  // States built by hand (the tests' and older callers') may leave the other workloads out.
  if (state.statefulSets) collect(state.statefulSets, statefulSets);
  if (state.daemonSets) collect(state.daemonSets, daemonSets);
  if (state.jobs) collect(state.jobs, jobs);
  if (state.cronJobs) collect(state.cronJobs, cronJobs);

  const byName = (a: { namespace?: string; name: string }, b: { namespace?: string; name: string }): number => (a.namespace ?? '').localeCompare(b.namespace ?? '') || a.name.localeCompare(b.name);
  const born = (kind: GraphKind, v: { namespace?: string; name: string }): number => options.born?.(kind, v.namespace ?? '', v.name) ?? Number.MAX_SAFE_INTEGER;

  const nodes: GraphNode[] = [];
  const byId = new Map<string, GraphNode>();
  const edges: GraphEdge[] = [];
  const add = (n: GraphNode): void => {
    nodes.push(n);
    byId.set(n.id, n);
  };

  // ---- Deployments and their ReplicaSets ----
  const depByUid = new Map<string, DeploymentView>();
  for (const d of deployments) depByUid.set(d.uid, d);
  const rsOf = new Map<string, ReplicaSetView[]>();
  const bareRs: ReplicaSetView[] = [];
  for (const rs of replicaSets) {
    const d = rs.owner?.kind === 'Deployment' ? depByUid.get(rs.owner.uid) : undefined;
    if (!d) bareRs.push(rs);
    else {
      const list = rsOf.get(d.uid) ?? [];
      list.push(rs);
      rsOf.set(d.uid, list);
    }
  }
  deployments.sort(byName);
  // Newest revision first: the new ReplicaSet on top, the old ones below it.
  const rsOrder = (a: ReplicaSetView, b: ReplicaSetView): number => (b.revision ?? 0) - (a.revision ?? 0) || born('ReplicaSet', a) - born('ReplicaSet', b) || a.name.localeCompare(b.name);
  const rsSequence: { rs: ReplicaSetView; d?: DeploymentView }[] = [];
  /** A Deployment's bar scale (its ReplicaSets' bars share it, so old and new compare), by uid. */
  const rsScale = new Map<string, number>();
  for (const d of deployments) {
    const list = (rsOf.get(d.uid) ?? []).sort(rsOrder);
    const status = rolloutStatus(d);
    const scale = Math.max(1, d.replicas, d.statusReplicas, ...list.map((r) => Math.max(r.replicas, r.statusReplicas)));
    const progressing = d.conditions.find((c) => c.type === 'Progressing');
    const replicaFailure = d.conditions.find((c) => c.type === 'ReplicaFailure' && c.status === 'True');
    const failed = status.failed || progressing?.status === 'False' || replicaFailure !== undefined;
    const available = d.conditions.find((c) => c.type === 'Available');
    const color: ColorName = failed ? 'red' : !status.done ? 'blue' : available?.status === 'False' ? 'yellow' : 'green';
    const word = failed ? (replicaFailure?.reason ?? progressing?.reason ?? 'failed') : !status.done ? 'rolling out' : `${d.readyReplicas}/${d.replicas} ready`;
    add({
      id: id('Deployment', d.namespace, d.name),
      kind: 'Deployment',
      name: d.name,
      namespace: d.namespace ?? '',
      column: COLUMN.Deployment,
      order: 0,
      w: SIZE.Deployment.w,
      h: SIZE.Deployment.h,
      status: word,
      color,
      lines: [`${d.revision !== undefined ? `revision ${d.revision} · ` : ''}${d.strategy}`],
      bars: [
        { label: 'up-to-date', value: d.updatedReplicas, of: scale, color: 'blue' },
        { label: 'ready', value: d.readyReplicas, of: scale, color: 'green' },
        { label: 'available', value: d.availableReplicas, of: scale, color: 'green' },
      ],
      detail: `Deployment ${d.namespace}/${d.name}: ${d.replicas} desired, ${d.updatedReplicas} up-to-date, ${d.readyReplicas} ready, ${d.availableReplicas} available. ${status.message}${replicaFailure?.message ? `. ${replicaFailure.message}` : ''}`,
      ...(d.revision !== undefined ? { revision: d.revision } : {}),
      rollingOut: !status.done,
      deleting: d.deleting,
    });
    for (const rs of list) rsSequence.push({ rs, d });
    rsScale.set(d.uid, scale);
  }
  bareRs.sort(byName);
  for (const rs of bareRs) rsSequence.push({ rs });

  for (const { rs, d } of rsSequence) {
    const isNew = d !== undefined && d.revision !== undefined && rs.revision === d.revision;
    const role = d ? (isNew ? 'new' : 'old') : undefined;
    const scale = d ? (rsScale.get(d.uid) ?? 1) : Math.max(1, rs.replicas, rs.statusReplicas);
    const settled = rs.replicas === rs.statusReplicas && rs.readyReplicas === rs.replicas;
    const color: ColorName = rs.replicas === 0 && rs.statusReplicas === 0 ? 'muted' : settled ? 'green' : 'blue';
    const word = rs.replicas === 0 && rs.statusReplicas === 0 ? 'scaled down' : settled ? `${rs.readyReplicas}/${rs.replicas} ready` : rs.statusReplicas < rs.replicas ? 'scaling up' : rs.statusReplicas > rs.replicas ? 'scaling down' : 'waiting for ready';
    const rsId = id('ReplicaSet', rs.namespace, rs.name);
    add({
      id: rsId,
      kind: 'ReplicaSet',
      name: rs.name,
      namespace: rs.namespace ?? '',
      column: COLUMN.ReplicaSet,
      order: 0,
      w: SIZE.ReplicaSet.w,
      h: SIZE.ReplicaSet.h,
      status: word,
      color,
      lines: [`${rs.revision !== undefined ? `revision ${rs.revision}` : 'no revision'}${role ? ` · ${role}` : ''}${rs.templateHash ? ` · hash ${rs.templateHash}` : ''}`],
      bars: [
        { label: 'desired', value: rs.replicas, of: scale, color: 'muted' },
        { label: 'current', value: rs.statusReplicas, of: scale, color: 'blue' },
        { label: 'ready', value: rs.readyReplicas, of: scale, color: 'green' },
      ],
      detail: `ReplicaSet ${rs.namespace}/${rs.name}${rs.revision !== undefined ? `, revision ${rs.revision}` : ''}${role ? `, the ${role} ReplicaSet of Deployment ${d!.name}` : ''}: ${rs.replicas} desired, ${rs.statusReplicas} current, ${rs.readyReplicas} ready.`,
      ...(role ? { role } : {}),
      ...(rs.revision !== undefined ? { revision: rs.revision } : {}),
      deleting: rs.deleting,
    });
    if (d) edges.push({ id: `owner:${id('Deployment', d.namespace, d.name)}>${rsId}`, type: 'owner', from: id('Deployment', d.namespace, d.name), to: rsId, color: 'muted' });
  }

  // ---- CronJobs and their Jobs, StatefulSets, DaemonSets ----
  /** The pods' owners drawn, by uid: their graph id and their rank down the column. */
  const podOwners = new Map<string, { id: string; rank: number }>();
  rsSequence.forEach(({ rs }, i) => podOwners.set(rs.uid, { id: id('ReplicaSet', rs.namespace, rs.name), rank: i }));
  const cronByUid = new Map<string, WorkloadView>();
  for (const c of cronJobs) cronByUid.set(c.uid, c);
  const jobsOf = new Map<string, WorkloadView[]>();
  const bareJobs: WorkloadView[] = [];
  for (const j of jobs) {
    const c = j.owner?.kind === 'CronJob' ? cronByUid.get(j.owner.uid) : undefined;
    if (!c) bareJobs.push(j);
    else jobsOf.set(c.uid, [...(jobsOf.get(c.uid) ?? []), j]);
  }
  const addWorkload = (w: WorkloadView, ownerId?: string): void => {
    const wid = id(w.kind, w.namespace, w.name);
    add(workloadNode(w, wid));
    if (w.kind !== 'CronJob') podOwners.set(w.uid, { id: wid, rank: podOwners.size });
    if (ownerId) edges.push({ id: `owner:${ownerId}>${wid}`, type: 'owner', from: ownerId, to: wid, color: 'muted' });
  };
  cronJobs.sort(byName);
  // A CronJob's Jobs newest first (the one running now on top), as its ReplicaSets are for a Deployment.
  const jobOrder = (a: WorkloadView, b: WorkloadView): number => born('Job', b) - born('Job', a) || b.name.localeCompare(a.name);
  for (const c of cronJobs) {
    addWorkload(c);
    for (const j of (jobsOf.get(c.uid) ?? []).sort(jobOrder)) addWorkload(j, id('CronJob', c.namespace, c.name));
  }
  for (const list of [statefulSets, daemonSets, bareJobs]) for (const w of list.sort(byName)) addWorkload(w);

  // ---- Pods, under their owner ----
  const podRank = (p: PodView): number => (p.owner ? (podOwners.get(p.owner.uid)?.rank ?? Number.MAX_SAFE_INTEGER) : Number.MAX_SAFE_INTEGER);
  pods.sort((a, b) => podRank(a) - podRank(b) || born('Pod', a) - born('Pod', b) || byName(a, b));
  const podIdByUid = new Map<string, string>();
  const podIdByName = new Map<string, string>();
  const podIndex = new Map<string, number>();
  pods.forEach((p, i) => {
    const tone = podTone(p);
    const pid = id('Pod', p.namespace, p.name);
    podIdByUid.set(p.uid, pid);
    podIdByName.set(`${p.namespace ?? ''}/${p.name}`, pid);
    podIndex.set(pid, i);
    const owner = p.owner ? podOwners.get(p.owner.uid) : undefined;
    add({
      id: pid,
      kind: 'Pod',
      name: p.name,
      namespace: p.namespace ?? '',
      column: COLUMN.Pod,
      order: 0,
      w: SIZE.Pod.w,
      h: SIZE.Pod.h,
      status: p.status,
      color: TONE_COLORS[tone],
      lines: [`${p.ready} ready${p.restarts ? ` · ${plural(p.restarts, 'restart')}` : ''} · ${p.node ? `on ${p.node}` : 'not scheduled'}`],
      bars: [],
      detail: `Pod ${p.namespace}/${p.name}: ${p.status} (${TONE_LABELS[tone]}), READY ${p.ready}, ${p.node ? `on node ${p.node}` : 'not bound to a node'}${p.ip ? `, IP ${p.ip}` : ''}${p.owner ? `, controlled by ${p.owner.kind} ${p.owner.name}` : ''}.`,
      tone,
      deleting: p.deleting,
    });
    if (owner) edges.push({ id: `owner:${owner.id}>${pid}`, type: 'owner', from: owner.id, to: pid, color: 'muted' });
  });

  // ---- EndpointSlices and Services, beside the pods they route ----
  const svcByName = new Map<string, ServiceView>();
  for (const s of services) svcByName.set(`${s.namespace ?? ''}/${s.name}`, s);
  const slicesOf = new Map<string, EndpointSliceView[]>();
  const orphanSlices: EndpointSliceView[] = [];
  const targetOf = (e: EndpointView, sliceNs: string | undefined): string | undefined => {
    const t = e.targetRef;
    if (!t || t.kind !== 'Pod') return undefined;
    return (t.uid ? podIdByUid.get(t.uid) : undefined) ?? podIdByName.get(`${t.namespace ?? sliceNs ?? ''}/${t.name}`);
  };
  const firstPod = (ids: Iterable<string | undefined>): number => {
    let best = Number.MAX_SAFE_INTEGER;
    for (const i of ids) if (i !== undefined) best = Math.min(best, podIndex.get(i) ?? best);
    return best;
  };
  for (const sl of slices) {
    const svc = sl.service ? svcByName.get(`${sl.namespace ?? ''}/${sl.service}`) : undefined;
    if (!svc) orphanSlices.push(sl);
    else {
      const key = `${svc.namespace ?? ''}/${svc.name}`;
      const list = slicesOf.get(key) ?? [];
      list.push(sl);
      slicesOf.set(key, list);
    }
  }
  const sliceRank = (sl: EndpointSliceView): number => firstPod(sl.endpoints.map((e) => targetOf(e, sl.namespace)));
  const selectedBy = new Map<string, string[]>();
  for (const s of services) {
    const sel: string[] = [];
    for (const p of pods) if ((p.namespace ?? '') === (s.namespace ?? '') && selects(s.selector, p.labels)) sel.push(id('Pod', p.namespace, p.name));
    selectedBy.set(`${s.namespace ?? ''}/${s.name}`, sel);
  }
  const svcRank = new Map<ServiceView, number>();
  for (const s of services) {
    const key = `${s.namespace ?? ''}/${s.name}`;
    svcRank.set(s, Math.min(firstPod(selectedBy.get(key) ?? []), ...(slicesOf.get(key) ?? []).map(sliceRank)));
  }
  services.sort((a, b) => svcRank.get(a)! - svcRank.get(b)! || byName(a, b));
  const sliceSequence: { sl: EndpointSliceView; svc?: ServiceView }[] = [];
  for (const s of services) for (const sl of (slicesOf.get(`${s.namespace ?? ''}/${s.name}`) ?? []).sort((a, b) => sliceRank(a) - sliceRank(b) || byName(a, b))) sliceSequence.push({ sl, svc: s });
  orphanSlices.sort((a, b) => sliceRank(a) - sliceRank(b) || byName(a, b));
  for (const sl of orphanSlices) sliceSequence.push({ sl });

  const routed = new Map<string, Set<string>>();
  const anyReady = new Map<string, boolean>();
  for (const { sl, svc } of sliceSequence) {
    const sid = id('EndpointSlice', sl.namespace, sl.name);
    const rows: EndpointRow[] = sl.endpoints
      .map((e, i) => {
        const c = endpointCondition(e);
        const target = targetOf(e, sl.namespace);
        return {
          id: `${sid}#${i}`,
          address: e.addresses.join(', ') || '(no address)',
          ready: c.ready,
          serving: c.serving,
          terminating: c.terminating,
          condition: c.condition,
          color: c.color,
          ...(target ? { target } : {}),
          ...(e.targetRef ? { targetName: `${e.targetRef.kind} ${e.targetRef.name}` } : {}),
          ...(e.node ? { node: e.node } : {}),
        };
      })
      // Rows beside the pods they route to, so routing edges do not cross.
      .sort((a, b) => (a.target ? (podIndex.get(a.target) ?? 0) : Number.MAX_SAFE_INTEGER) - (b.target ? (podIndex.get(b.target) ?? 0) : Number.MAX_SAFE_INTEGER));
    const ready = rows.filter((r) => r.ready).length;
    const svcKey = svc ? `${svc.namespace ?? ''}/${svc.name}` : '';
    if (svc) {
      anyReady.set(svcKey, (anyReady.get(svcKey) ?? false) || ready > 0);
      const set = routed.get(svcKey) ?? new Set<string>();
      for (const r of rows) if (r.target) set.add(r.target);
      routed.set(svcKey, set);
    }
    const ports = sl.ports.map((p) => `${p.port ?? '*'}${p.name ? `/${p.name}` : ''}`).join(', ');
    add({
      id: sid,
      kind: 'EndpointSlice',
      name: sl.name,
      namespace: sl.namespace ?? '',
      column: COLUMN.EndpointSlice,
      order: 0,
      w: SIZE.EndpointSlice.w,
      h: SIZE.EndpointSlice.h + rows.length * SIZE.endpointRow,
      status: `${ready}/${rows.length} ready`,
      color: rows.length === 0 ? 'muted' : ready === 0 ? 'yellow' : 'green',
      lines: [`${sl.addressType}${ports ? ` · ports ${ports}` : ' · no ports'}`],
      bars: [],
      detail: `EndpointSlice ${sl.namespace}/${sl.name}${svc ? ` of Service ${svc.name}` : ''}: ${plural(rows.length, 'endpoint')}, ${ready} ready${rows.length ? ` (${rows.map((r) => `${r.address} ${r.condition}${r.targetName ? ` -> ${r.targetName}` : ''}`).join('; ')})` : ''}.`,
      endpoints: rows,
      deleting: sl.deleting,
    });
    if (svc) edges.push({ id: `owner:${id('Service', svc.namespace, svc.name)}>${sid}`, type: 'owner', from: id('Service', svc.namespace, svc.name), to: sid, color: 'muted' });
    for (const r of rows) if (r.target) edges.push({ id: `routing:${r.id}>${r.target}`, type: 'routing', from: sid, fromPort: r.id, to: r.target, color: r.color, condition: r.condition });
  }

  for (const s of services) {
    const key = `${s.namespace ?? ''}/${s.name}`;
    const sid = id('Service', s.namespace, s.name);
    const selector = s.selector ? Object.entries(s.selector).map(([k, v]) => `${k}=${v}`).join(',') : '';
    const ports = s.ports.map((p) => `${p.port}${p.targetPort !== undefined && p.targetPort !== p.port ? `→${p.targetPort}` : ''}/${p.protocol}`).join(', ');
    const hasSlices = (slicesOf.get(key)?.length ?? 0) > 0;
    const ready = anyReady.get(key) ?? false;
    const color: ColorName = ready ? 'green' : !s.selector && !hasSlices ? 'muted' : 'yellow';
    const word = ready ? 'has ready endpoints' : !hasSlices && !s.selector ? 'no selector' : 'no ready endpoints';
    add({
      id: sid,
      kind: 'Service',
      name: s.name,
      namespace: s.namespace ?? '',
      column: COLUMN.Service,
      order: 0,
      w: SIZE.Service.w,
      h: SIZE.Service.h,
      status: word,
      color,
      lines: [`${s.type}${s.clusterIP ? ` · ${s.clusterIP}` : ''}`, `${ports || 'no ports'}${selector ? ` · ${selector}` : ' · no selector'}`],
      bars: [],
      detail: `Service ${s.namespace}/${s.name} (${s.type}${s.clusterIP ? ` ${s.clusterIP}` : ''}), ${selector ? `selector ${selector}` : 'no selector: its EndpointSlices are written by hand or by the API server'}: ${word}.`,
      deleting: s.deleting,
    });
    const through = routed.get(key) ?? new Set<string>();
    for (const pid of selectedBy.get(key) ?? []) if (!through.has(pid)) edges.push({ id: `selector:${sid}>${pid}`, type: 'selector', from: sid, to: pid, color: 'muted' });
  }

  // Orders within each column: as added.
  const next = [0, 0, 0, 0, 0];
  for (const n of nodes) n.order = next[n.column]!++;
  return { revision: state.revision, nodes, byId, edges, namespaces: [...namespaces].sort(), total };
}

/** A StatefulSet, DaemonSet, Job or CronJob box: the counts and words its controller stored. */
function workloadNode(w: WorkloadView, wid: string): GraphNode {
  const of = Math.max(1, w.desired, w.current, w.ready, w.updated);
  let status: string;
  let color: ColorName;
  let lines: string[];
  let bars: Bar[];
  let detail: string;
  const cond = (type: string) => w.conditions.find((c) => c.type === type && c.status === 'True');
  switch (w.kind) {
    case 'StatefulSet': {
      const rolling = w.updateRevision !== undefined && w.currentRevision !== undefined && w.updateRevision !== w.currentRevision;
      const settled = w.current === w.desired && w.ready === w.desired && !rolling;
      status = w.desired === 0 && w.current === 0 ? 'scaled down' : rolling ? 'rolling out' : settled ? `${w.ready}/${w.desired} ready` : w.current < w.desired ? 'scaling up' : w.current > w.desired ? 'scaling down' : 'waiting for ready';
      color = w.desired === 0 && w.current === 0 ? 'muted' : settled ? 'green' : 'blue';
      lines = [w.updateRevision ? `revision ${w.updateRevision}${rolling && w.currentRevision ? ` (from ${w.currentRevision})` : ''}` : 'no revision yet'];
      bars = [
        { label: 'desired', value: w.desired, of, color: 'muted' },
        { label: 'current', value: w.current, of, color: 'blue' },
        { label: 'ready', value: w.ready, of, color: 'green' },
      ];
      detail = `StatefulSet ${w.namespace}/${w.name}: ${w.desired} desired, ${w.current} current, ${w.updated} updated, ${w.ready} ready${rolling ? `; rolling from ${w.currentRevision} to ${w.updateRevision}` : ''}.`;
      break;
    }
    case 'DaemonSet': {
      const settled = w.ready === w.desired && w.updated === w.desired && w.current === w.desired;
      status = w.desired === 0 ? 'no nodes' : settled ? `${w.ready}/${w.desired} ready` : w.updated < w.desired ? 'rolling out' : 'waiting for ready';
      color = w.desired === 0 ? 'muted' : settled ? 'green' : 'blue';
      lines = [`one pod a node${w.failed ? ` · ${plural(w.failed, 'misscheduled pod')}` : ''}`];
      bars = [
        { label: 'desired', value: w.desired, of, color: 'muted' },
        { label: 'current', value: w.current, of, color: 'blue' },
        { label: 'ready', value: w.ready, of, color: 'green' },
      ];
      detail = `DaemonSet ${w.namespace}/${w.name}: ${w.desired} desired (nodes it should run on), ${w.current} current, ${w.updated} up-to-date, ${w.ready} ready${w.failed ? `, ${w.failed} misscheduled` : ''}.`;
      break;
    }
    case 'Job': {
      const word = w.status ?? 'Running';
      const failed = cond('Failed') ?? cond('FailureTarget');
      status = word;
      color = word === 'Complete' || word === 'SuccessCriteriaMet' ? 'green' : word === 'Failed' || word === 'FailureTarget' ? 'red' : word === 'Suspended' ? 'muted' : word === 'Terminating' ? 'purple' : 'blue';
      lines = [`completions ${w.summary ?? '?'}${w.failed ? ` · ${plural(w.failed, 'pod')} failed` : ''}`];
      bars = [
        { label: 'active', value: w.current, of, color: 'blue' },
        { label: 'ready', value: w.ready, of, color: 'green' },
        { label: 'succeeded', value: w.updated, of, color: 'green' },
      ];
      detail = `Job ${w.namespace}/${w.name}: ${word}, completions ${w.summary ?? '?'}, ${w.current} active, ${w.ready} ready, ${w.updated} succeeded, ${w.failed} failed${failed ? `. ${failed.reason ?? ''}${failed.message ? `: ${failed.message}` : ''}` : ''}${w.owner ? `, created by ${w.owner.kind} ${w.owner.name}` : ''}.`;
      break;
    }
    case 'CronJob': {
      const word = w.status ?? 'Scheduled';
      status = word === 'Active' ? `${w.current} active` : word === 'Suspended' ? 'suspended' : 'waiting for schedule';
      color = word === 'Suspended' ? 'muted' : word === 'Active' ? 'blue' : 'green';
      lines = [`schedule ${w.summary || '?'}`, w.lastSchedule ? `last scheduled ${w.lastSchedule}` : 'not scheduled yet'];
      bars = [];
      detail = `CronJob ${w.namespace}/${w.name}: schedule ${w.summary || '?'}, ${plural(w.current, 'active Job')}${word === 'Suspended' ? ', suspended' : ''}${w.lastSchedule ? `, last scheduled at ${w.lastSchedule}` : ', not scheduled yet'}.`;
      break;
    }
  }
  return { id: wid, kind: w.kind, name: w.name, namespace: w.namespace ?? '', column: COLUMN[w.kind], order: 0, w: SIZE[w.kind].w, h: SIZE[w.kind].h, status, color, lines, bars, detail, deleting: w.deleting };
}
