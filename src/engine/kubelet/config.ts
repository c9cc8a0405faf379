/**
 * A simulated node's configuration: its machine (capacity, addresses, OS), its place in the
 * cluster (zone, region, instance type, taints, podCIDR) and its images. Everything not given
 * has the value a kind node of Kubernetes 1.35 reports.
 */
import type { Taint } from './api';
import type { ImageSettings } from './images';

export interface SystemInfo {
  kubeletVersion: string;
  containerRuntimeVersion: string;
  osImage: string;
  kernelVersion: string;
  operatingSystem: string;
  architecture: string;
}

export interface NodeConfig {
  name: string;
  /** Node IP: status.addresses InternalIP and every pod's hostIP. */
  internalIP: string;
  /**
   * The node's pod range. Upstream, kube-controller-manager's node IPAM controller writes
   * spec.podCIDR after the node registers; here the kubelet registers with it.
   */
  podCIDR: string;
  /** Capacity; default 4 CPUs, 16Gi memory, 110 pods, 100Gi ephemeral storage. */
  cpu?: string | number;
  memory?: string;
  pods?: number;
  ephemeralStorage?: string;
  /** topology.kubernetes.io/zone and region, node.kubernetes.io/instance-type. */
  zone?: string;
  region?: string;
  instanceType?: string;
  /** Further labels (node-role.kubernetes.io/control-plane: "" for a control-plane node). */
  labels?: Readonly<Record<string, string>>;
  /** --register-with-taints. */
  taints?: readonly Taint[];
  images?: ImageSettings;
  systemInfo?: Partial<SystemInfo>;
}

export const DEFAULT_SYSTEM_INFO: SystemInfo = {
  kubeletVersion: 'v1.35.0',
  containerRuntimeVersion: 'containerd://2.1.4',
  osImage: 'Debian GNU/Linux 12 (bookworm)',
  kernelVersion: '6.8.0-85-generic',
  operatingSystem: 'linux',
  architecture: 'amd64',
};

export const DEFAULT_CAPACITY = { cpu: '4', memory: '16Gi', pods: 110, ephemeralStorage: '100Gi' } as const;

/** How often the kubelet checks its node status, and how often it posts it when nothing changed. */
export const NODE_STATUS_UPDATE_FREQUENCY_MS = 10_000;
export const NODE_STATUS_REPORT_FREQUENCY_MS = 5 * 60_000;
/** The node Lease: renewed every 10 s, valid for 40 s. */
export const NODE_LEASE_DURATION_SECONDS = 40;
export const NODE_LEASE_RENEW_INTERVAL_MS = 10_000;
export const NODE_LEASE_NAMESPACE = 'kube-node-lease';
export const KUBELET_PORT = 10250;

/**
 * The addresses of the index-th node (from 0) of a cluster, as kind lays them out: node IPs in
 * 172.18.0.0/16 from .2, pod ranges 10.244.<n>.0/24 from 10.244.1.0/24 (kubeadm's 10.244.0.0/16
 * pod subnet), continuing in 10.128.0.0/9 for clusters beyond 254 nodes.
 */
export function nodeAddresses(index: number): { internalIP: string; podCIDR: string } {
  const host = index + 2;
  const range = index + 1;
  const podCIDR = range < 255 ? `10.244.${range}.0/24` : `10.${128 + (range >> 8)}.${range & 255}.0/24`;
  return { internalIP: `172.18.${host >> 8}.${host & 255}`, podCIDR };
}
