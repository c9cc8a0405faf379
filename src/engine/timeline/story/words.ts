/** The words the story uses for actors, kinds, stages and the kubelet's actions. */
import type { KubeletRecord } from '../../trace/kubelet';
import type { RequestStage } from '../../trace/apiserver';
import { table } from '../../api/own';

const CONTROLLER_TITLES = table<string>({
  deployment: 'Deployment controller',
  replicaset: 'ReplicaSet controller',
  endpointslice: 'EndpointSlice controller',
  endpoint: 'Endpoints controller',
  garbagecollector: 'Garbage collector',
  statefulset: 'StatefulSet controller',
  daemonset: 'DaemonSet controller',
  job: 'Job controller',
  cronjob: 'CronJob controller',
  namespace: 'Namespace controller',
  'node-lifecycle': 'Node lifecycle controller',
  'taint-eviction': 'Taint eviction controller',
  disruption: 'Disruption controller',
  resourcequota: 'ResourceQuota controller',
  serviceaccount: 'ServiceAccount controller',
});

export function controllerTitle(controller: string): string {
  return CONTROLLER_TITLES[controller] ?? `${controller} controller`;
}

export const STAGE_TITLES: Readonly<Record<RequestStage, string>> = {
  authentication: 'Authentication',
  impersonation: 'Impersonation',
  authorization: 'Authorization',
  decode: 'Decode',
  'mutating-admission': 'Mutating admission',
  validation: 'Validation',
  'validating-admission': 'Validating admission',
  storage: 'etcd write',
};

/** "3 Pods", "1 ReplicaSet", "2 Endpoints". */
export function counted(n: number, kind: string): string {
  return `${n} ${n === 1 || kind.endsWith('s') ? kind : `${kind}s`}`;
}

export function seconds(ms: number): string {
  return `${+(ms / 1000).toFixed(3)}s`;
}

export function offset(ms: number): string {
  return `+${(ms / 1000).toFixed(3)}s`;
}

/** A list in prose: "a", "a and b", "a, b and c". */
export function prose(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** One kubelet action as a phrase: "pulled nginx:1.27 in 3384ms", "readiness success". */
export function kubeletPhrase(r: KubeletRecord): string {
  const c = r.container ? ` ${r.container}` : '';
  switch (r.action) {
    case 'pod-admitted':
      return 'admitted the pod';
    case 'pod-adopted':
      return 'adopted the running pod';
    case 'pod-rejected':
      return `rejected the pod: ${r.detail}`;
    case 'sandbox-created':
      return `created the pod sandbox (${r.detail})`;
    case 'image-pulling':
      return `pulling ${r.detail}`;
    case 'image-pulled':
      return `pulled ${r.detail}`;
    case 'image-pull-failed':
      return `could not pull the image of${c}: ${r.detail}`;
    case 'image-back-off':
      return `backing off pulling the image of${c} (${r.detail})`;
    case 'container-config-error':
      return `could not create${c}: ${r.detail}`;
    case 'container-created':
      return `created${c}`;
    case 'container-started':
      return `started${c}`;
    case 'container-exited':
      return `${c.trim() || 'the container'} exited (${r.detail})`;
    case 'container-killing':
      return `stopped${c}`;
    case 'container-back-off':
      return `backing off restarting${c} (${r.detail})`;
    case 'probe-result': {
      const [type, result] = r.detail.split(' ');
      return result === 'success' ? `${c.trim()} passed its ${type} probe` : `${c.trim()}'s ${type} probe: ${result ?? r.detail}`;
    }
    case 'pod-terminating':
      return `began terminating the pod (${r.detail})`;
    case 'pod-finished':
      return `the pod finished (${r.detail})`;
    case 'pod-deleted':
      return 'removed the pod from the node';
    case 'sandbox-failed':
      return `could not create the pod's sandbox: ${r.detail}`;
    case 'volume-mount-failed':
      return `could not mount a volume: ${r.detail}`;
    case 'behavior-invalid':
      return `the pod's simulated behaviour is invalid: ${r.detail}`;
    case 'node-registered':
    case 'node-stopped':
    case 'node-started':
      return `${r.action}: ${r.detail}`;
  }
}
