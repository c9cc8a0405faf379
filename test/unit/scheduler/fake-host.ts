/**
 * A fake API server for the scheduler: it stores pods and nodes, carries out bindings, status
 * patches and deletions, and delivers the resulting watch events back to the scheduler one clock
 * task later, as informers would. Also builds the objects tests need.
 */
import { Clock } from '../../../src/engine/clock';
import { Random } from '../../../src/engine/random';
import type { Namespace, Node, PersistentVolumeClaim, Pod, PodCondition, PodDisruptionBudget, SelectingWorkload, Service } from '../../../src/engine/scheduler/api';
import type { PodStatusUpdate, SchedulerEvent, SchedulerHost, SchedulerListers } from '../../../src/engine/scheduler/host';
import type { RecordDetail, SchedulerRecordDraft } from '../../../src/engine/scheduler/record';
import { Scheduler } from '../../../src/engine/scheduler/scheduler';

export interface FakeClusterOptions {
  seed?: string;
  detail?: RecordDetail;
  /** How long a deleted pod stays (terminating) before it is gone; 0 = immediately. */
  deletionGraceMs?: number;
  clock?: Clock;
  percentageOfNodesToScore?: number;
}

export class FakeCluster implements SchedulerHost {
  readonly clock: Clock;
  readonly scheduler: Scheduler;
  readonly events: SchedulerEvent[] = [];
  readonly records: SchedulerRecordDraft[] = [];
  readonly pods = new Map<string, Pod>();
  readonly nodes = new Map<string, Node>();
  readonly services: Service[] = [];
  readonly replicaSets = new Map<string, SelectingWorkload>();
  readonly namespaces = new Map<string, Namespace>();
  readonly pdbs: PodDisruptionBudget[] = [];
  readonly pvcs = new Map<string, PersistentVolumeClaim>();
  bindings = 0;
  detail: RecordDetail;
  private rv = 1;
  private uid = 1;
  private readonly graceMs: number;

  constructor(options: FakeClusterOptions = {}) {
    this.clock = options.clock ?? new Clock(0);
    this.detail = options.detail ?? 'full';
    this.graceMs = options.deletionGraceMs ?? 0;
    this.scheduler = new Scheduler({
      clock: this.clock,
      random: new Random(options.seed ?? 'test'),
      host: this,
      percentageOfNodesToScore: options.percentageOfNodesToScore ?? 0,
      recorder: { detail: () => this.detail, emit: (d) => void this.records.push(d) },
    });
  }

  readonly listers: SchedulerListers = {
    namespace: (name) => this.namespaces.get(name),
    namespaces: () => [...this.namespaces.values()],
    services: (ns) => this.services.filter((s) => s.metadata.namespace === ns),
    replicaSet: (ns, name) => this.replicaSets.get(`${ns}/${name}`),
    statefulSet: () => undefined,
    replicationController: () => undefined,
    podDisruptionBudgets: () => this.pdbs,
    persistentVolumeClaim: (ns, name) => this.pvcs.get(`${ns}/${name}`),
    persistentVolume: () => undefined,
    storageClass: () => undefined,
  };

  // --- what the scheduler asks of the API server ---------------------------------------------

  async bind(pod: Pod, nodeName: string): Promise<void> {
    const key = keyOf(pod);
    const cur = this.pods.get(key);
    if (!cur) throw new Error(`pods "${pod.metadata.name}" not found`);
    if (cur.spec.nodeName) {
      throw new Error(`Operation cannot be fulfilled on pods/binding "${pod.metadata.name}": pod ${pod.metadata.name} is already assigned to node "${cur.spec.nodeName}"`);
    }
    this.bindings++;
    this.replace(cur, { ...cur, spec: { ...cur.spec, nodeName } });
  }

  async updatePodStatus(pod: Pod, update: PodStatusUpdate): Promise<void> {
    const cur = this.pods.get(keyOf(pod));
    if (!cur) throw new Error(`pods "${pod.metadata.name}" not found`);
    const status = { ...(cur.status ?? {}) };
    if (update.condition) status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== update.condition!.type), update.condition];
    if (update.nominatedNodeName !== undefined) {
      if (update.nominatedNodeName === '') delete status.nominatedNodeName;
      else status.nominatedNodeName = update.nominatedNodeName;
    }
    this.replace(cur, { ...cur, status });
  }

  async deletePod(victim: Pod, condition: PodCondition): Promise<void> {
    const cur = this.pods.get(keyOf(victim));
    if (!cur) throw new Error(`pods "${victim.metadata.name}" not found`);
    const status = { ...(cur.status ?? {}), conditions: [...(cur.status?.conditions ?? []), condition] };
    if (this.graceMs === 0) {
      this.removePod(cur);
      return;
    }
    const terminating = this.replace(cur, { ...cur, metadata: { ...cur.metadata, deletionTimestamp: this.clock.rfc3339() }, status });
    this.clock.setTimer(this.graceMs, () => this.removePod(terminating), { label: 'fake: pod termination' });
  }

  recordEvent(event: SchedulerEvent): void {
    this.events.push(event);
  }

  // --- what tests do ---------------------------------------------------------------------

  addNode(node: Node): Node {
    const n = this.stamp(node);
    this.nodes.set(n.metadata.name, n);
    this.deliver(() => this.scheduler.onAdd('Node', n));
    return n;
  }

  updateNode(name: string, change: (n: Node) => Node): void {
    const old = this.nodes.get(name)!;
    const n = this.stamp(change(old));
    this.nodes.set(name, n);
    this.deliver(() => this.scheduler.onUpdate('Node', old, n));
  }

  addPod(pod: Pod): Pod {
    const p = this.stamp({ ...pod, metadata: { ...pod.metadata, uid: pod.metadata.uid || `uid-${this.uid++}` } });
    this.pods.set(keyOf(p), p);
    this.deliver(() => this.scheduler.onAdd('Pod', p));
    return p;
  }

  removePod(pod: Pod): void {
    const cur = this.pods.get(keyOf(pod));
    if (!cur) return;
    this.pods.delete(keyOf(pod));
    this.deliver(() => this.scheduler.onDelete('Pod', cur));
  }

  pod(name: string, namespace = 'default'): Pod {
    return this.pods.get(`${namespace}/${name}`)!;
  }

  nodeOf(name: string, namespace = 'default'): string | undefined {
    return this.pods.get(`${namespace}/${name}`)?.spec.nodeName;
  }

  notes(reason: string): string[] {
    return this.events.filter((e) => e.reason === reason).map((e) => e.note);
  }

  private replace(cur: Pod, next: Pod): Pod {
    const p = this.stamp(next);
    this.pods.set(keyOf(p), p);
    this.deliver(() => this.scheduler.onUpdate('Pod', cur, p));
    return p;
  }

  private stamp<T extends Pod | Node>(obj: T): T {
    return { ...obj, metadata: { ...obj.metadata, resourceVersion: String(this.rv++) } };
  }

  private deliver(fn: () => void): void {
    this.clock.queueTask(fn, { label: 'fake: watch event' });
  }
}

const keyOf = (p: Pod): string => `${p.metadata.namespace}/${p.metadata.name}`;

// --- object builders ---------------------------------------------------------------------------

export interface NodeSpec {
  cpu?: string;
  memory?: string;
  pods?: number;
  labels?: Record<string, string>;
  taints?: Node['spec'] extends infer S ? (S extends { taints?: infer T } ? T : never) : never;
  unschedulable?: boolean;
  images?: { names: string[]; sizeBytes: number }[];
  zone?: string;
}

export function makeNode(name: string, spec: NodeSpec = {}): Node {
  const labels: Record<string, string> = { 'kubernetes.io/hostname': name, ...(spec.zone ? { 'topology.kubernetes.io/zone': spec.zone } : {}), ...(spec.labels ?? {}) };
  const allocatable = { cpu: spec.cpu ?? '4', memory: spec.memory ?? '16Gi', pods: String(spec.pods ?? 110) };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels },
    spec: { ...(spec.taints ? { taints: spec.taints } : {}), ...(spec.unschedulable ? { unschedulable: true } : {}) },
    status: { allocatable, capacity: allocatable, ...(spec.images ? { images: spec.images } : {}) },
  };
}

export interface PodSpecLite {
  namespace?: string;
  cpu?: string;
  memory?: string;
  labels?: Record<string, string>;
  nodeName?: string;
  priority?: number;
  preemptionPolicy?: string;
  image?: string;
  spec?: Partial<Pod['spec']>;
  uid?: string;
  startTime?: string;
  ownerReferences?: Pod['metadata']['ownerReferences'];
  nominatedNodeName?: string;
}

export function makePod(name: string, p: PodSpecLite = {}): Pod {
  const requests: Record<string, string> = {};
  if (p.cpu) requests.cpu = p.cpu;
  if (p.memory) requests.memory = p.memory;
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: p.namespace ?? 'default',
      uid: p.uid ?? `uid-${name}`,
      ...(p.labels ? { labels: p.labels } : {}),
      ...(p.ownerReferences ? { ownerReferences: p.ownerReferences } : {}),
    },
    spec: {
      schedulerName: 'default-scheduler',
      containers: [{ name: 'c', image: p.image ?? 'nginx', ...(Object.keys(requests).length > 0 ? { resources: { requests } } : {}) }],
      ...(p.nodeName ? { nodeName: p.nodeName } : {}),
      ...(p.priority !== undefined ? { priority: p.priority } : {}),
      ...(p.preemptionPolicy ? { preemptionPolicy: p.preemptionPolicy } : {}),
      ...(p.spec ?? {}),
    },
    status: { phase: 'Pending', ...(p.startTime ? { startTime: p.startTime } : {}), ...(p.nominatedNodeName ? { nominatedNodeName: p.nominatedNodeName } : {}) },
  };
}
