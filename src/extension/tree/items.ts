/**
 * How the Cluster tree shows things, as plain data (the vscode glue turns it into TreeItems):
 * labels, descriptions built from kubectl get's cells, icons in theme colours for phase and
 * readiness, and the contextValue the item's context menu keys on.
 */
import type { KubeObject } from '../../engine/api/types';
import type { Cell } from '../../engine/printers/table';
import type { ViewKind, ViewObject } from '../view-types';
import { table } from '../../engine/api/own';

/** Theme colours: green for healthy, yellow for on the way, red for broken. */
export const COLOR = {
  ok: 'testing.iconPassed',
  progressing: 'list.warningForeground',
  error: 'errorForeground',
  muted: 'descriptionForeground',
} as const;

export interface IconSpec {
  readonly id: string;
  readonly color?: string;
}

export interface ItemSpec {
  readonly label: string;
  readonly description?: string;
  readonly tooltip?: string;
  readonly icon: IconSpec;
  readonly contextValue: string;
  readonly collapsible: 'none' | 'collapsed' | 'expanded';
}

const GROUPS: Record<ViewKind, { label: string; icon: string; expanded: boolean }> = {
  nodes: { label: 'Nodes', icon: 'server', expanded: true },
  namespaces: { label: 'Namespaces', icon: 'symbol-namespace', expanded: false },
  deployments: { label: 'Deployments', icon: 'rocket', expanded: true },
  replicasets: { label: 'ReplicaSets', icon: 'layers', expanded: false },
  horizontalpodautoscalers: { label: 'HorizontalPodAutoscalers', icon: 'arrow-both', expanded: true },
  pods: { label: 'Pods', icon: 'symbol-event', expanded: true },
  services: { label: 'Services', icon: 'plug', expanded: false },
  endpointslices: { label: 'EndpointSlices', icon: 'references', expanded: false },
  events: { label: 'Events', icon: 'bell', expanded: false },
};

export function groupItem(kind: ViewKind, count: number): ItemSpec {
  const g = GROUPS[kind];
  return { label: g.label, description: String(count), icon: { id: g.icon }, contextValue: `group:${kind}`, collapsible: g.expanded ? 'expanded' : 'collapsed' };
}

const text = (c: Cell | undefined): string => (c === undefined || c === null ? '' : String(c));

/** Failure states of kubectl's STATUS column (printPod's reasons). */
const POD_ERRORS = /^(Init:)?(CrashLoopBackOff|Error|ErrImagePull|ImagePullBackOff|InvalidImageName|ErrImageNeverPull|CreateContainerConfigError|CreateContainerError|RunContainerError|OOMKilled|ContainerStatusUnknown|StartError|Signal:\d+|ExitCode:\d+)$|^(Failed|Evicted|NodeLost|Unknown|UnexpectedAdmissionError|OutOfcpu|OutOfmemory|OutOfpods|NodeAffinity|NodeName|Preempting)$/;

/** A pod's icon from kubectl's STATUS and READY cells. */
export function podIcon(row: Readonly<Record<string, Cell>>): IconSpec {
  const status = text(row.status);
  const [ready, total] = text(row.ready).split('/').map(Number);
  if (status === 'Terminating') return { id: 'trash', color: COLOR.progressing };
  if (POD_ERRORS.test(status)) return { id: 'error', color: COLOR.error };
  if (status === 'Completed') return { id: 'check', color: COLOR.muted };
  if (status === 'Running') return ready !== undefined && ready === total && total! > 0 ? { id: 'pass-filled', color: COLOR.ok } : { id: 'circle-large-outline', color: COLOR.progressing };
  if (status === 'Pending' || status === 'SchedulingGated') return { id: 'clock', color: COLOR.progressing };
  return { id: 'sync~spin', color: COLOR.progressing };
}

export function nodeIcon(row: Readonly<Record<string, Cell>>, stopped: boolean): IconSpec {
  const status = text(row.status);
  if (stopped || !status.startsWith('Ready')) return { id: 'server', color: COLOR.error };
  if (status.includes('SchedulingDisabled')) return { id: 'server', color: COLOR.progressing };
  return { id: 'server', color: COLOR.ok };
}

/** "2/3" style counts: complete when both sides agree. */
function complete(cell: Cell | undefined): boolean {
  const [a, b] = text(cell).split('/');
  return a !== undefined && a === b;
}

const GI = 1024 ** 3;
const SUFFIX = table<number>({ '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, Ki: 1024, Mi: 1024 ** 2, Gi: GI, Ti: 1024 ** 4 });

/** Millicores as kubectl writes requests: "300m", or whole cores ("2"). */
export function milliCores(m: number): string {
  return m % 1000 === 0 ? String(m / 1000) : `${m}m`;
}

/** Bytes in Mi below a Gi ("384Mi"), else in Gi with one decimal ("1.5Gi"); "0" for none. */
export function memoryBytes(n: number): string {
  if (n === 0) return '0';
  if (n < GI) return `${Math.round(n / 1024 ** 2)}Mi`;
  const gi = n / GI;
  return `${Number.isInteger(gi) ? gi : gi.toFixed(1)}Gi`;
}

/** A memory quantity in Gi with one decimal ("16279340Ki" -> "15.5Gi"); as given when unreadable. */
export function memoryGi(quantity: string): string {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(quantity);
  if (!m) return quantity;
  const gi = (Number(m[1]) * SUFFIX[m[2] ?? '']!) / GI;
  return `${Number.isInteger(gi) ? gi : gi.toFixed(1)}Gi`;
}

function allocatable(node: KubeObject): Record<string, string> {
  const a = (node.status as { allocatable?: Record<string, unknown> } | undefined)?.allocatable ?? {};
  return Object.fromEntries(Object.entries(a).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

function namespaced(v: ViewObject, description: string): string {
  const ns = v.object.metadata.namespace;
  return ns && ns !== 'default' ? `${description} · ${ns}` : description;
}

/** The kubectl get row as tooltip lines: "STATUS: Running". */
function rowTooltip(title: string, row: Readonly<Record<string, Cell>>): string {
  return [title, ...Object.entries(row).filter(([k]) => k !== 'name').map(([k, v]) => `${k.toUpperCase()}: ${text(v)}`)].join('\n');
}

export interface ObjectItemContext {
  /** Pods not yet finished on the node (nodes only). */
  podCount?: number;
  /** What those pods request (nodes only): cpu in millicores, memory in bytes. */
  requested?: { readonly milliCPU: number; readonly memory: number };
  /** The item is a pod listed under its node: the node's name is not repeated. */
  underNode?: boolean;
  /** The node's kubelet is stopped (nodes only). */
  stopped?: boolean;
  /** Whether the item has children (nodes with pods, services with slices). */
  hasChildren?: boolean;
}

export function objectItem(v: ViewObject, ctx: ObjectItemContext = {}): ItemSpec {
  const { object, row } = v;
  const name = object.metadata.name ?? '';
  const title = `${v.kind === 'endpointslices' ? 'EndpointSlice' : kindOf(v.kind)} ${v.key}`;
  const tooltip = rowTooltip(title, row);
  const leaf = { contextValue: v.kind.replace(/s$/, ''), collapsible: 'none' as const, tooltip };
  switch (v.kind) {
    case 'nodes': {
      const a = allocatable(object);
      const status = ctx.stopped ? `${text(row.status)} (kubelet stopped)` : text(row.status);
      const cordoned = (object.spec as { unschedulable?: unknown } | undefined)?.unschedulable === true;
      const req = ctx.requested ?? { milliCPU: 0, memory: 0 };
      // Requested of allocatable, as the scheduler counts them (kubectl describe node's "Allocated resources").
      const cpu = `cpu ${milliCores(req.milliCPU)}/${a.cpu ?? '?'}`;
      const memory = `memory ${memoryBytes(req.memory)}/${memoryGi(a.memory ?? '?')}`;
      const pods = `pods ${ctx.podCount ?? 0}/${a.pods ?? '?'}`;
      return {
        ...leaf,
        label: name,
        description: `${status} · ${cpu} · ${memory} · ${pods}`,
        tooltip: `${tooltip}\nRequested / allocatable: ${cpu}, ${memory}, ${pods}`,
        icon: nodeIcon(row, ctx.stopped === true),
        contextValue: `node${cordoned ? ':cordoned' : ''}${ctx.stopped ? ':stopped' : ''}`,
        collapsible: ctx.hasChildren ? 'collapsed' : 'none',
      };
    }
    case 'namespaces':
      return { ...leaf, label: name, description: text(row.status), icon: { id: 'symbol-namespace', color: row.status === 'Active' ? undefined : COLOR.progressing } };
    case 'deployments':
      return {
        ...leaf,
        label: name,
        description: namespaced(v, `${text(row.ready)} ready · ${text(row['up-to-date'])} up-to-date · ${text(row.available)} available`),
        icon: { id: 'rocket', color: complete(row.ready) ? COLOR.ok : COLOR.progressing },
      };
    case 'replicasets': {
      const ready = `${text(row.ready)}/${text(row.desired)}`;
      return {
        ...leaf,
        label: name,
        description: namespaced(v, `${text(row.desired)} desired · ${text(row.current)} current · ${text(row.ready)} ready`),
        icon: { id: 'layers', color: row.desired === 0 ? COLOR.muted : complete(ready) ? COLOR.ok : COLOR.progressing },
      };
    }
    case 'horizontalpodautoscalers': {
      // kubectl get hpa's cells, and the status the controller wrote: its conditions say why.
      const status = object.status as { desiredReplicas?: number; conditions?: { type: string; status: string; reason?: string; message?: string }[] } | undefined;
      const conditions = status?.conditions ?? [];
      const active = conditions.find((c) => c.type === 'ScalingActive');
      const limited = conditions.find((c) => c.type === 'ScalingLimited' && c.status === 'True');
      const replicas = `${text(row.replicas)} replicas (${text(row.minpods)}-${text(row.maxpods)})`;
      const desired = status?.desiredReplicas !== undefined && String(status.desiredReplicas) !== text(row.replicas) ? ` → ${status.desiredReplicas}` : '';
      const parts = [text(row.targets), `${replicas}${desired}`];
      if (limited?.reason) parts.push(limited.reason);
      const failing = active?.status === 'False' && active.reason !== 'ScalingDisabled';
      return {
        ...leaf,
        label: name,
        description: namespaced(v, parts.join(' · ')),
        tooltip: [tooltip, ...conditions.map((c) => `${c.type} ${c.status} ${c.reason ?? ''}: ${c.message ?? ''}`)].join('\n'),
        icon: { id: 'arrow-both', color: failing ? COLOR.error : active?.status === 'True' ? COLOR.ok : COLOR.progressing },
      };
    }
    case 'pods': {
      const node = text(row.node);
      const restarts = text(row.restarts);
      const parts = [text(row.ready), text(row.status)];
      if (restarts !== '0' && restarts !== '') parts.push(`${restarts} restarts`);
      if (node && node !== '<none>' && !ctx.underNode) parts.push(node);
      return { ...leaf, label: name, description: namespaced(v, parts.join(' · ')), icon: podIcon(row) };
    }
    case 'services':
      return {
        ...leaf,
        label: name,
        description: namespaced(v, `${text(row.type)} ${text(row['cluster-ip'])} · ${text(row['port(s)'])}`),
        icon: { id: 'plug' },
        collapsible: ctx.hasChildren ? 'collapsed' : 'none',
      };
    case 'endpointslices':
      return { ...leaf, label: name, description: `${text(row.addresstype)} · ${text(row.ports)} · ${text(row.endpoints)}`, icon: { id: 'references', color: text(row.endpoints) === '<unset>' ? COLOR.progressing : COLOR.ok } };
    case 'events': {
      const warning = text(row.type) === 'Warning';
      // kubectl get events' order: how long ago first, then the reason, the object, the message.
      const age = text(row['last seen']);
      const label = `${text(row.reason)} ${text(row.object)}`;
      return {
        ...leaf,
        label: age && age !== '<unknown>' ? `${age} ago · ${label}` : label,
        description: text(row.message),
        tooltip: `${text(row.type)} ${text(row.reason)} ${text(row.object)} (${text(row['last seen'])} ago)\n${text(row.message)}`,
        icon: warning ? { id: 'warning', color: COLOR.progressing } : { id: 'info', color: COLOR.muted },
      };
    }
  }
}

function kindOf(kind: ViewKind): string {
  return GROUPS[kind].label.replace(/s$/, '');
}
