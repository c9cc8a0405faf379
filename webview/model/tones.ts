/**
 * What colour a pod and a node are drawn in, read off their stored views: a pod's tone is
 * kubectl's STATUS word (printPod, computed by the host from the stored pod) with the Ready
 * condition telling "Running" apart from "Running, not Ready"; a node's state is kubectl's
 * STATUS for nodes with its spec (cordoned, taints) and whether its kubelet runs.
 */
import type { NodeView, PodView } from '../../src/protocol/cluster-state';

export const POD_TONES = ['pending', 'creating', 'running', 'ready', 'terminating', 'failed', 'crashloop', 'imagepull', 'succeeded', 'unknown'] as const;
export type PodTone = (typeof POD_TONES)[number];

/** The legend's words for each tone. */
export const TONE_LABELS: Readonly<Record<PodTone, string>> = {
  pending: 'Pending',
  creating: 'ContainerCreating',
  running: 'Running, not Ready',
  ready: 'Ready',
  terminating: 'Terminating',
  failed: 'Failed',
  crashloop: 'CrashLoopBackOff',
  imagepull: 'ImagePullBackOff',
  succeeded: 'Completed',
  unknown: 'Unknown',
};

/** A sentence for the legend's tooltip: what the tone means, in kubectl's terms. */
export const TONE_HELP: Readonly<Record<PodTone, string>> = {
  pending: 'STATUS Pending: not yet bound to a node, or bound and not started',
  creating: 'STATUS ContainerCreating, PodInitializing or Init:N/M: the kubelet is starting it',
  running: 'STATUS Running with the Ready condition False: a readiness probe has not passed',
  ready: 'STATUS Running and Ready: it receives traffic',
  terminating: 'STATUS Terminating: deleted, within its grace period',
  failed: 'STATUS Error, OOMKilled, a config error or phase Failed',
  crashloop: 'STATUS CrashLoopBackOff: a container keeps exiting, the kubelet waits before restarting it',
  imagepull: 'STATUS ImagePullBackOff, ErrImagePull or InvalidImageName: the image cannot be pulled',
  succeeded: 'STATUS Completed: every container exited 0',
  unknown: 'STATUS Unknown: its node stopped reporting',
};

const IMAGE_PULL = new Set(['ImagePullBackOff', 'ErrImagePull', 'ErrImageNeverPull', 'InvalidImageName']);
const CREATING = new Set(['ContainerCreating', 'PodInitializing']);
const FAILED = new Set(['Error', 'OOMKilled', 'CreateContainerConfigError', 'CreateContainerError', 'RunContainerError', 'ContainerCannotRun', 'StartError', 'Evicted', 'Failed', 'DeadlineExceeded', 'UnexpectedAdmissionError', 'OutOfcpu', 'OutOfmemory', 'OutOfpods', 'NodeAffinity']);

/** The tone of kubectl's STATUS word. */
export function podTone(p: Pick<PodView, 'status' | 'phase' | 'readyCondition'>): PodTone {
  const s = p.status;
  const word = s.startsWith('Init:') ? s.slice(5) : s;
  if (s === 'Terminating') return 'terminating';
  if (s === 'Unknown') return 'unknown';
  if (word === 'CrashLoopBackOff') return 'crashloop';
  if (IMAGE_PULL.has(word)) return 'imagepull';
  if (s === 'Running') return p.readyCondition ? 'ready' : 'running';
  if (s === 'NotReady') return 'running';
  if (s === 'Completed' || p.phase === 'Succeeded') return 'succeeded';
  if (CREATING.has(s) || (s.startsWith('Init:') && /^\d+\/\d+$/.test(word))) return 'creating';
  if (s === 'Pending' || s === 'SchedulingGated') return 'pending';
  if (FAILED.has(word) || word.startsWith('ExitCode:') || word.startsWith('Signal:') || p.phase === 'Failed') return 'failed';
  if (p.phase === 'Pending') return 'creating';
  if (p.phase === 'Running') return p.readyCondition ? 'ready' : 'running';
  return 'unknown';
}

export type NodeHealth = 'ready' | 'notready' | 'unknown';

export interface NodeState {
  readonly health: NodeHealth;
  readonly cordoned: boolean;
  /** Taints with NoSchedule or NoExecute (PreferNoSchedule only steers scoring). */
  readonly tainted: boolean;
  /** The node's kubelet does not run (the machine was stopped). */
  readonly stopped: boolean;
  /** kubectl get nodes' STATUS, as stored. */
  readonly status: string;
}

export function nodeState(n: NodeView, running: boolean | undefined): NodeState {
  const ready = n.ready?.status;
  return {
    health: ready === 'True' ? 'ready' : ready === 'False' ? 'notready' : 'unknown',
    cordoned: n.unschedulable,
    tainted: n.taints.some((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute'),
    stopped: running === false,
    status: n.status,
  };
}

/** A pod counts against its node's allocatable until it has finished (kubectl describe node's "Non-terminated Pods"). */
export function holdsResources(p: Pick<PodView, 'phase'>): boolean {
  return p.phase !== 'Succeeded' && p.phase !== 'Failed';
}
