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
