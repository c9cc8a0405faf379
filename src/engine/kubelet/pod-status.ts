/**
 * The pod status the kubelet reports (generateAPIPodStatus and pkg/kubelet/status/generate.go):
 * the phase from the container states, the kubelet-owned conditions with their reasons
 * (ContainersNotReady "containers with unready status: [nginx]", ContainersNotInitialized,
 * PodCompleted, ReadinessGatesNotReady), IPs and container statuses. `mergePodStatus` then does
 * what the status manager does before writing: keeps conditions others own, keeps
 * lastTransitionTime while a condition's status holds, and keeps startTime and qosClass.
 */
import { goQuote } from '../api/gofmt';
import { isSidecar, type Container, type ContainerStatus, type Pod, type PodCondition, type PodSpec, type PodStatus } from './api';
import { containerStatus, WAITING, type ContainerRecord } from './containers';

export const CONDITION = {
  readyToStartContainers: 'PodReadyToStartContainers',
  initialized: 'Initialized',
  ready: 'Ready',
  containersReady: 'ContainersReady',
  scheduled: 'PodScheduled',
} as const;

/** The conditions the kubelet generates (kubetypes.PodConditionsByKubelet and PodReadyToStartContainers). */
const KUBELET_CONDITIONS: ReadonlySet<string> = new Set(Object.values(CONDITION));

export interface PodRuntimeView {
  readonly records: ReadonlyMap<string, ContainerRecord>;
  readonly sandboxReady: boolean;
  readonly podIP: string | undefined;
  readonly hostIP: string;
  /** The pod worker is done with the pod: nothing runs and nothing will be restarted. */
  readonly terminal: boolean;
}

export function generatePodStatus(pod: Pod, view: PodRuntimeView, rfc3339: (ms: number) => string): PodStatus {
  const spec: Partial<PodSpec> = pod.spec ?? {};
  const inits = spec.initContainers ?? [];
  const containers = spec.containers ?? [];
  const defaultWaiting = inits.length > 0 ? WAITING.podInitializing : WAITING.containerCreating;
  const toStatus = (c: Container) => {
    const record = view.records.get(c.name) ?? { name: c.name, kind: 'regular', restartCount: 0 };
    return containerStatus(pod, record, c, defaultWaiting, rfc3339);
  };
  const initStatuses = inits.map(toStatus);
  const statuses = containers.map(toStatus);
  const phase = podPhase(pod, initStatuses, statuses, view.terminal);

  const containersReady = containersReadyCondition(inits, containers, initStatuses, statuses, phase);
  const conditions: PodCondition[] = [
    { type: CONDITION.readyToStartContainers, status: view.sandboxReady ? 'True' : 'False' },
    initializedCondition(inits, containers, initStatuses, statuses, phase),
    readyCondition(pod, containersReady, pod.status?.conditions ?? []),
    containersReady,
    { type: CONDITION.scheduled, status: 'True' },
  ];

  const status: PodStatus = { phase, conditions, hostIP: view.hostIP, hostIPs: [{ ip: view.hostIP }] };
  if (view.podIP) {
    status.podIP = view.podIP;
    status.podIPs = [{ ip: view.podIP }];
  }
  if (initStatuses.length > 0) status.initContainerStatuses = initStatuses;
  status.containerStatuses = statuses;
  return status;
}

/** The status of a pod the kubelet refused to run. */
export function rejectedPodStatus(reason: string, message: string): PodStatus {
  return { phase: 'Failed', conditions: [], message, reason };
}

/**
 * getPhase: from the init containers' progress and the containers' states; a pod the kubelet is
 * done with always ends in a terminal phase (Failed if nothing says Succeeded).
 */
export function podPhase(pod: Pod, initStatuses: ContainerStatus[], statuses: ContainerStatus[], terminal: boolean): string {
  const phase = containerPhase(pod, initStatuses, statuses, terminal);
  return terminal && phase !== 'Succeeded' && phase !== 'Failed' ? 'Failed' : phase;
}

function containerPhase(pod: Pod, initStatuses: ContainerStatus[], statuses: ContainerStatus[], terminal: boolean): string {
  const spec: Partial<PodSpec> = pod.spec ?? {};
  const restartPolicy = spec.restartPolicy ?? 'Always';
  let pendingInitialization = 0;
  let failedInitialization = 0;
  (spec.initContainers ?? []).forEach((c, i) => {
    const s = initStatuses[i];
    if (!s) {
      pendingInitialization++;
      return;
    }
    if (isSidecar(c)) {
      if (!s.started) pendingInitialization++;
      return;
    }
    const { running, terminated, waiting } = s.state ?? {};
    const last = s.lastState?.terminated;
    if (running) pendingInitialization++;
    else if (terminated) {
      if (terminated.exitCode !== 0) failedInitialization++;
    } else if (waiting) {
      if (last) {
        if (last.exitCode !== 0) failedInitialization++;
      } else pendingInitialization++;
    } else pendingInitialization++;
  });

  let waiting = 0;
  let running = 0;
  let stopped = 0;
  let succeeded = 0;
  for (const s of statuses) {
    const state = s.state ?? {};
    if (state.running) running++;
    else if (state.terminated) {
      stopped++;
      if (state.terminated.exitCode === 0) succeeded++;
    } else if (state.waiting) {
      if (s.lastState?.terminated) stopped++;
      else waiting++;
    } else waiting++;
  }

  if (failedInitialization > 0 && restartPolicy === 'Never') return 'Failed';
  const regularStarted = statuses.some((s) => s.state?.running || s.state?.terminated || s.lastState?.terminated);
  if (pendingInitialization > 0 && !regularStarted) return 'Pending';
  if (failedInitialization > 0 && !regularStarted) return 'Pending';
  if (waiting > 0) return 'Pending';
  if (running > 0) return 'Running';
  if (stopped > 0) {
    if (terminal) return stopped === succeeded ? 'Succeeded' : 'Failed';
    if (restartPolicy === 'Always') return 'Running';
    if (stopped === succeeded) return 'Succeeded';
    if (restartPolicy === 'Never') return 'Failed';
    return 'Running';
  }
  return 'Pending';
}

function statusOf(statuses: ContainerStatus[], name: string): ContainerStatus | undefined {
  return statuses.find((s) => s.name === name);
}

function goList(names: string[]): string {
  return `[${names.join(' ')}]`;
}

function initializedCondition(inits: Container[], containers: Container[], initStatuses: ContainerStatus[], statuses: ContainerStatus[], phase: string): PodCondition {
  const incomplete: string[] = [];
  for (const c of inits) {
    const s = statusOf(initStatuses, c.name);
    if (isSidecar(c)) {
      if (!s?.started) incomplete.push(c.name);
    } else if (!s?.state?.terminated || s.state.terminated.exitCode !== 0) {
      incomplete.push(c.name);
    }
  }
  if (phase === 'Succeeded') return { type: CONDITION.initialized, status: 'True', reason: 'PodCompleted' };
  const regularStarted = containers.some((c) => {
    const s = statusOf(statuses, c.name);
    return s?.started === true || s?.state?.terminated !== undefined || s?.lastState?.terminated !== undefined;
  });
  if (regularStarted || incomplete.length === 0) return { type: CONDITION.initialized, status: 'True' };
  return { type: CONDITION.initialized, status: 'False', reason: 'ContainersNotInitialized', message: `containers with incomplete status: ${goList(incomplete)}` };
}

function containersReadyCondition(inits: Container[], containers: Container[], initStatuses: ContainerStatus[], statuses: ContainerStatus[], phase: string): PodCondition {
  if (phase === 'Succeeded') return { type: CONDITION.containersReady, status: 'False', reason: 'PodCompleted' };
  if (phase === 'Failed') return { type: CONDITION.containersReady, status: 'False', reason: 'PodFailed' };
  const unready: string[] = [];
  for (const c of inits) if (isSidecar(c) && !statusOf(initStatuses, c.name)?.ready) unready.push(c.name);
  for (const c of containers) if (!statusOf(statuses, c.name)?.ready) unready.push(c.name);
  if (unready.length > 0) return { type: CONDITION.containersReady, status: 'False', reason: 'ContainersNotReady', message: `containers with unready status: ${goList(unready)}` };
  return { type: CONDITION.containersReady, status: 'True' };
}

function readyCondition(pod: Pod, containersReady: PodCondition, conditions: readonly PodCondition[]): PodCondition {
  if (containersReady.status !== 'True') {
    const c: PodCondition = { type: CONDITION.ready, status: containersReady.status };
    if (containersReady.reason) c.reason = containersReady.reason;
    if (containersReady.message) c.message = containersReady.message;
    return c;
  }
  const unready: string[] = [];
  for (const gate of pod.spec?.readinessGates ?? []) {
    const c = conditions.find((x) => x.type === gate.conditionType);
    if (!c) unready.push(`corresponding condition of pod readiness gate ${goQuote(gate.conditionType)} does not exist.`);
    else if (c.status !== 'True') unready.push(`the status of pod readiness gate ${goQuote(gate.conditionType)} is not "True", but ${c.status}`);
  }
  if (unready.length > 0) return { type: CONDITION.ready, status: 'False', reason: 'ReadinessGatesNotReady', message: unready.join(', ') };
  return { type: CONDITION.ready, status: 'True' };
}

/**
 * The status manager's final touches before a write, against the pod as the API server has it
 * now: the conditions others own first, then the kubelet's with observedGeneration, lastProbeTime
 * null and a lastTransitionTime that only moves when the status does; startTime set once; the
 * API server's qosClass kept; status fields in Go order.
 */
export function mergePodStatus(pod: Pod, generated: PodStatus, now: string): PodStatus {
  const old = pod.status ?? {};
  const generation = pod.metadata.generation;
  const others = (old.conditions ?? []).filter((c) => !KUBELET_CONDITIONS.has(c.type));
  const conditions = [...others, ...(generated.conditions ?? []).map((c) => {
    const before = (old.conditions ?? []).find((o) => o.type === c.type);
    const out = { type: c.type } as PodCondition;
    if (generation !== undefined) out.observedGeneration = generation;
    out.status = c.status;
    out.lastProbeTime = null;
    out.lastTransitionTime = before && before.status === c.status && before.lastTransitionTime ? before.lastTransitionTime : now;
    if (c.reason) out.reason = c.reason;
    if (c.message) out.message = c.message;
    return out;
  })];
  const status: PodStatus = {};
  if (generation !== undefined) status.observedGeneration = generation;
  status.phase = generated.phase;
  status.conditions = conditions;
  if (generated.message) status.message = generated.message;
  if (generated.reason) status.reason = generated.reason;
  const nominated = (old as { nominatedNodeName?: string }).nominatedNodeName;
  if (nominated) Object.assign(status, { nominatedNodeName: nominated });
  if (generated.hostIP) {
    status.hostIP = generated.hostIP;
    status.hostIPs = generated.hostIPs;
  }
  if (generated.podIP) {
    status.podIP = generated.podIP;
    status.podIPs = generated.podIPs;
  } else if (old.podIP) {
    status.podIP = old.podIP;
    if (old.podIPs) status.podIPs = old.podIPs;
  }
  status.startTime = old.startTime ?? now;
  if (generated.initContainerStatuses) status.initContainerStatuses = generated.initContainerStatuses;
  if (generated.containerStatuses) status.containerStatuses = generated.containerStatuses;
  if (old.qosClass) status.qosClass = old.qosClass;
  return status;
}
