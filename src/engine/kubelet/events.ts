/**
 * What the kubelet tells users through Events: pkg/kubelet/events' reasons and the messages of
 * kubelet 1.35 (container created/started events no longer repeat the container name, which the
 * event's fieldPath already carries). Events about a container point at the pod with the field
 * path "spec.containers{name}"; events about the node point at a reference whose UID is the node
 * name, and land in the default namespace.
 */
import { goQuote } from '../api/gofmt';
import { formatPod, type ObjectReference, type Pod } from './api';
import { formatGoDuration } from '../api/duration';

export type EventType = 'Normal' | 'Warning';

/** Where the kubelet's events go: client-go's EventRecorder with source {component: kubelet, host: node}. */
export interface EventSink {
  /** `cause`: the trace record the event's write is attributed to. */
  event(ref: ObjectReference, type: EventType, reason: string, message: string, cause?: number): void;
}

export const REASON = {
  created: 'Created',
  started: 'Started',
  failed: 'Failed',
  killing: 'Killing',
  backOff: 'BackOff',
  pulling: 'Pulling',
  pulled: 'Pulled',
  inspectFailed: 'InspectFailed',
  errImageNeverPull: 'ErrImageNeverPull',
  unhealthy: 'Unhealthy',
  nodeReady: 'NodeReady',
  nodeNotReady: 'NodeNotReady',
  starting: 'Starting',
  nodeAllocatableEnforced: 'NodeAllocatableEnforced',
  nodeHasSufficientMemory: 'NodeHasSufficientMemory',
  nodeHasNoDiskPressure: 'NodeHasNoDiskPressure',
  nodeHasSufficientPID: 'NodeHasSufficientPID',
  failedMount: 'FailedMount',
  failedCreatePodSandBox: 'FailedCreatePodSandBox',
  /** kubesim's own: the behavior annotation could not be read. */
  invalidBehavior: 'InvalidBehavior',
} as const;

export const MESSAGE = {
  created: 'Container created',
  started: 'Container started',
  pulling: (image: string) => `Pulling image ${goQuote(image)}`,
  pulled: (image: string, pullMs: number, totalMs: number, sizeBytes: number) =>
    `Successfully pulled image ${goQuote(image)} in ${formatGoDuration(pullMs)} (${formatGoDuration(totalMs)} including waiting). Image size: ${sizeBytes} bytes.`,
  alreadyPresent: (image: string) => `Container image ${goQuote(image)} already present on machine and can be accessed by the pod`,
  neverPull: (image: string) => `Container image ${goQuote(image)} is not present with pull policy of Never`,
  failedToPull: (image: string, err: string) => `Failed to pull image ${goQuote(image)}: ${err}`,
  pullBackOff: (image: string) => `Back-off pulling image ${goQuote(image)}`,
  error: (reason: string) => `Error: ${reason}`,
  stopping: (container: string) => `Stopping container ${container}`,
  failedLiveness: (container: string) => `Container ${container} failed liveness probe, will be restarted`,
  failedStartup: (container: string) => `Container ${container} failed startup probe, will be restarted`,
  definitionChanged: (container: string) => `Container ${container} definition changed, will be restarted`,
  backOffRestart: (container: string, pod: Pod) => `Back-off restarting failed container ${container} in pod ${formatPod(pod)}`,
  crashLoopWaiting: (container: string, pod: Pod, backoffMs: number) =>
    `back-off ${formatGoDuration(backoffMs)} restarting failed container=${container} pod=${formatPod(pod)}`,
  probeFailed: (probe: 'Startup' | 'Readiness' | 'Liveness', output: string) => `${probe} probe failed: ${output}`,
  nodeStatusIsNow: (node: string, event: string) => `Node ${node} status is now: ${event}`,
  startingKubelet: 'Starting kubelet.',
  allocatableEnforced: 'Updated Node Allocatable limit across pods',
  rejected: (message: string) => `Pod was rejected: ${message}`,
  /**
   * kuberuntime's SyncPod when RunPodSandbox fails, with containerd's error for a CNI whose
   * host-local IPAM has no address left in the node's podCIDR (the range host-local reports runs
   * from the gateway to the last address before broadcast).
   */
  failedCreatePodSandbox: (sandboxId: string, rangeSet: string) =>
    `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox ${goQuote(sandboxId)}: plugin type="bridge" name="kubesim" failed (add): failed to allocate for range 0: no IP addresses available in range set: ${rangeSet}`,
  setUpFailed: (volume: string, err: string) => `MountVolume.SetUp failed for volume ${goQuote(volume)} : ${err}`,
  unmountedVolumes: (volumes: string[]) =>
    `Unable to attach or mount volumes: unmounted volumes=[${volumes.join(' ')}], unattached volumes=[], failed to process volumes=[]: context deadline exceeded`,
} as const;

export function podRef(pod: Pod): ObjectReference {
  return {
    kind: 'Pod',
    namespace: pod.metadata.namespace ?? '',
    name: pod.metadata.name ?? '',
    uid: pod.metadata.uid ?? '',
    apiVersion: 'v1',
    resourceVersion: pod.metadata.resourceVersion ?? '',
  };
}

/** kubecontainer.GenerateContainerRef: the pod, narrowed to one container by field path. */
export function containerRef(pod: Pod, container: string, init: boolean): ObjectReference {
  return { ...podRef(pod), fieldPath: `spec.${init ? 'initContainers' : 'containers'}{${container}}` };
}

export function nodeRef(node: string): ObjectReference {
  return { kind: 'Node', name: node, uid: node, namespace: '' };
}
