/**
 * The Node a kubelet registers and the status it keeps posting (kubelet_node_status.go and
 * nodestatus/setters.go): capacity and allocatable (allocatable keeps the default hard eviction
 * thresholds back: 100Mi of memory and 10% of the node filesystem), the standard labels,
 * addresses, nodeInfo, images, daemonEndpoints, and the conditions MemoryPressure, DiskPressure,
 * PIDPressure and Ready with the kubelet's reasons and messages. Each setter that changes a
 * condition's status reports the event the kubelet records ("Node x status is now: NodeReady").
 */
import { parseQuantity, Quantity } from '../api/quantity';
import type { JsonObject } from '../api/types';
import type { Node, NodeCondition } from './api';
import { DEFAULT_CAPACITY, DEFAULT_SYSTEM_INFO, KUBELET_PORT, type NodeConfig } from './config';
import { hashHex } from './image-ref';
import { REASON } from './events';
import { deepEqual } from '../api/deep-equal';
import { assignOwn } from '../api/own';

const EVICTION_HARD_MEMORY_BYTES = 100 * 1024 * 1024;
/** nodefs.available<10%, a float32 percentage as the eviction manager holds it. */
const EVICTION_HARD_NODEFS_FRACTION = Math.fround(0.1);

export const CONTROLLER_MANAGED_ATTACH_DETACH = 'volumes.kubernetes.io/controller-managed-attach-detach';

interface ConditionSpec {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  /** The event the kubelet records when the condition takes this status. */
  event: string;
}

/** The conditions of a healthy, running kubelet, in the order the setters produce them. */
const HEALTHY: readonly ConditionSpec[] = [
  { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available', event: REASON.nodeHasSufficientMemory },
  { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure', event: REASON.nodeHasNoDiskPressure },
  { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available', event: REASON.nodeHasSufficientPID },
  { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', event: REASON.nodeReady },
];

/** The labels the kubelet (and the cloud provider, for topology) put on its Node. */
export function nodeLabels(config: NodeConfig): Record<string, string> {
  const info = { ...DEFAULT_SYSTEM_INFO, ...config.systemInfo };
  const labels: Record<string, string> = {
    'beta.kubernetes.io/arch': info.architecture,
    'beta.kubernetes.io/os': info.operatingSystem,
    'kubernetes.io/arch': info.architecture,
    'kubernetes.io/hostname': config.name,
    'kubernetes.io/os': info.operatingSystem,
  };
  if (config.instanceType) labels['node.kubernetes.io/instance-type'] = config.instanceType;
  if (config.region) labels['topology.kubernetes.io/region'] = config.region;
  if (config.zone) labels['topology.kubernetes.io/zone'] = config.zone;
  assignOwn(labels, config.labels);
  return Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function nodeCapacity(config: NodeConfig): Record<string, string> {
  return {
    cpu: canonical(String(config.cpu ?? DEFAULT_CAPACITY.cpu)),
    'ephemeral-storage': canonical(config.ephemeralStorage ?? DEFAULT_CAPACITY.ephemeralStorage),
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: canonical(config.memory ?? DEFAULT_CAPACITY.memory),
    pods: String(config.pods ?? DEFAULT_CAPACITY.pods),
  };
}

/** Capacity minus the hard eviction thresholds (no kube or system reservations configured). */
export function nodeAllocatable(config: NodeConfig): Record<string, string> {
  const capacity = nodeCapacity(config);
  const memory = quantity(capacity.memory!).value();
  const storage = quantity(capacity['ephemeral-storage']!).value();
  return {
    ...capacity,
    'ephemeral-storage': asStored(Math.max(0, storage - Math.floor(storage * EVICTION_HARD_NODEFS_FRACTION))),
    memory: asStored(Math.max(0, memory - EVICTION_HARD_MEMORY_BYTES)),
  };
}

/** The Node object the kubelet creates when it registers. */
export function initialNode(config: NodeConfig, status: JsonObject): Node {
  const spec: JsonObject = { podCIDR: config.podCIDR, podCIDRs: [config.podCIDR] };
  if (config.taints && config.taints.length > 0) spec.taints = config.taints.map((t) => ({ ...t }));
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: config.name, labels: nodeLabels(config), annotations: { [CONTROLLER_MANAGED_ATTACH_DETACH]: 'true' } },
    spec,
    status,
  };
}

export interface NodeStatusResult {
  status: JsonObject;
  /** Reasons of the events the condition setters record, in order. */
  events: string[];
}

/**
 * The node status now: the healthy conditions (heartbeat now; transition time kept while the
 * status holds, else now and an event) and the machine's facts.
 */
export function computeNodeStatus(config: NodeConfig, previous: readonly NodeCondition[], images: JsonObject[], now: string): NodeStatusResult {
  const events: string[] = [];
  const conditions = HEALTHY.map((c) => {
    const before = previous.find((p) => p.type === c.type);
    const holds = before?.status === c.status;
    if (!holds) events.push(c.event);
    return {
      type: c.type,
      status: c.status,
      lastHeartbeatTime: now,
      lastTransitionTime: holds && before?.lastTransitionTime ? before.lastTransitionTime : now,
      reason: c.reason,
      message: c.message,
    };
  });
  const info = { ...DEFAULT_SYSTEM_INFO, ...config.systemInfo };
  const status: JsonObject = {
    capacity: nodeCapacity(config),
    allocatable: nodeAllocatable(config),
    conditions,
    addresses: [
      { type: 'InternalIP', address: config.internalIP },
      { type: 'Hostname', address: config.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: KUBELET_PORT } },
    nodeInfo: {
      machineID: hashHex(`${config.name}/machine-id`).slice(0, 32),
      systemUUID: uuidOf(`${config.name}/system-uuid`),
      bootID: uuidOf(`${config.name}/boot-id`),
      kernelVersion: info.kernelVersion,
      osImage: info.osImage,
      containerRuntimeVersion: info.containerRuntimeVersion,
      kubeletVersion: info.kubeletVersion,
      kubeProxyVersion: '',
      operatingSystem: info.operatingSystem,
      architecture: info.architecture,
    },
    images,
    runtimeHandlers: ['', 'runc'].map((name) => ({ name, features: { recursiveReadOnlyMounts: true, userNamespaces: true } })),
    features: { supplementalGroupsPolicy: true },
  };
  return { status, events };
}

/** nodeStatusHasChanged: any difference but the conditions' heartbeat times. */
export function nodeStatusChanged(before: JsonObject | undefined, after: JsonObject): boolean {
  if (!before) return true;
  const strip = (s: JsonObject): JsonObject => ({
    ...s,
    conditions: Array.isArray(s.conditions) ? s.conditions.map((c) => (typeof c === 'object' && c !== null && !Array.isArray(c) ? { ...c, lastHeartbeatTime: null } : c)) : s.conditions,
  });
  return !deepEqual(strip(before), strip(after));
}

/** A byte count as the API server stores it (it parses what the kubelet sends and writes it canonically). */
function asStored(bytes: number): string {
  return canonical(Quantity.fromInt(bytes, 'BinarySI').toString());
}

function canonical(text: string): string {
  return quantity(text).toString();
}

function quantity(text: string): Quantity {
  const q = parseQuantity(text);
  if (!q.ok) throw new Error(`kubelet: invalid node capacity ${JSON.stringify(text)}: ${q.error}`);
  return q.value;
}

function uuidOf(text: string): string {
  const h = hashHex(text);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}
