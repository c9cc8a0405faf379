/**
 * The runtime manager's createPodSandbox (pkg/kubelet/kuberuntime/kuberuntime_sandbox.go): the
 * sandbox takes its time to come up and gets the pod's IP from the node's podCIDR (the node's IP
 * with hostNetwork); with no address left RunPodSandbox fails, the pod says so, and it is tried
 * again after the pod workers' back-off period.
 */
import { Random } from '../random';
import { MESSAGE, podRef, REASON } from './events';
import type { PodWorker } from './pod-workers';

/** Creating the pod sandbox (network namespace, IP) takes this long. */
export const SANDBOX_START_MS = 1000;
/** A sandbox that could not be created is tried again after the pod workers' backOffPeriod. */
export const SANDBOX_RETRY_MS = 10_000;

/** createPodSandbox: the sandbox comes up with its IP, or fails for want of one and is tried again. */
export async function createSandbox(w: PodWorker): Promise<void> {
  await w.sleep(SANDBOX_START_MS, 'sandbox');
  if (w.stopped()) return;
  const ip = w.pod.spec?.hostNetwork ? w.ctx.nodeIP : w.ctx.ips.allocate(w.uid);
  if (!ip) {
    // The node's podCIDR has no address left (more pods than a /24 holds): RunPodSandbox fails,
    // the kubelet says so on the pod and tries again, while it stays ContainerCreating.
    w.sandboxAttempts++;
    const rangeSet = w.ctx.ips.rangeSet;
    w.event(podRef(w.pod), 'Warning', REASON.failedCreatePodSandBox, MESSAGE.failedCreatePodSandbox(sandboxId(w.uid, w.sandboxAttempts), rangeSet));
    if (w.sandboxAttempts === 1) w.note('sandbox-failed', `no IP addresses available in range set ${rangeSet}`);
    w.wake('sandbox', w.now() + SANDBOX_RETRY_MS, true);
    return;
  }
  w.podIP = ip;
  w.sandboxReady = true;
  w.note('sandbox-created', `pod IP ${ip}`);
}

/** A sandbox's id as containerd prints it (64 hex digits), the same for the same pod and attempt. */
function sandboxId(uid: string, attempt: number): string {
  const random = new Random(`${uid}/sandbox/${attempt}`);
  let id = '';
  for (let i = 0; i < 8; i++) id += random.nextUint32().toString(16).padStart(8, '0');
  return id;
}
