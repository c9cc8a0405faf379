/**
 * The kubelets as the source of pods/log: the API server finds the pod's node and asks that
 * node's kubelet, as kube-apiserver proxies /containerLogs to the kubelet's port 10250.
 */
import { StatusError } from '../api/status';
import type { KubeObject } from '../api/types';
import type { Pod } from './api';
import type { Kubelet, LogStream } from './kubelet';
import type { LogOptions } from './logs';

export interface KubeletLogSource {
  /** The container's output, or a StatusError in the kubelet's (or the proxy's) words; undefined when no kubelet runs the pod's node. */
  open(pod: KubeObject, request: LogOptions & { container: string }): LogStream | StatusError | undefined;
}

export function kubeletLogSource(kubeletFor: (node: string) => Kubelet | undefined): KubeletLogSource {
  return {
    open(pod, request) {
      const p = pod as Pod;
      const kubelet = kubeletFor(p.spec?.nodeName ?? '');
      if (!kubelet) return undefined;
      try {
        return kubelet.openLogs(p.metadata.namespace ?? '', p.metadata.name ?? '', request.container, request);
      } catch (err) {
        if (err instanceof StatusError) return err;
        throw err;
      }
    },
  };
}
