/**
 * The machines of a cluster, laid out as kubeadm (and kind) would: a control-plane node named
 * `<cluster>-control-plane`, registered with the node-role.kubernetes.io/control-plane label and
 * the NoSchedule taint of the same key, then workers `<cluster>-worker`, `<cluster>-worker2`, ...
 * spread round-robin over the zones. Node IPs and pod ranges follow kind's numbering in the order
 * the nodes are added (nodeAddresses).
 */
import type { Taint } from '../kubelet/api';
import { nodeAddresses, type NodeConfig } from '../kubelet/config';

export const CONTROL_PLANE_ROLE = 'node-role.kubernetes.io/control-plane';
/** kubeadm labels control-plane nodes so that cloud load balancers leave them out. */
export const EXCLUDE_FROM_LOAD_BALANCERS = 'node.kubernetes.io/exclude-from-external-load-balancers';
export const CLUSTER_NAME = 'kubesim';
const WORKER_PREFIX = `${CLUSTER_NAME}-worker`;
export const DEFAULT_ZONES: readonly string[] = ['zone-a', 'zone-b', 'zone-c'];
export const DEFAULT_REGION = 'region-1';

/** A machine: capacity and placement. Everything unset has the kubelet's defaults (4 CPUs, 16Gi, 110 pods). */
export interface MachineSpec {
  cpu?: string | number;
  memory?: string;
  pods?: number;
  labels?: Readonly<Record<string, string>>;
  taints?: readonly Taint[];
  /** The node's topology.kubernetes.io/zone; default: the next zone of the cluster's round-robin. */
  zone?: string;
}

export interface NodeOptions extends MachineSpec {
  /** Worker nodes; default 3. */
  count?: number;
  /** The zones workers are spread over; default zone-a, zone-b, zone-c. */
  zones?: readonly string[];
  /**
   * Register a tainted control-plane node first, as kubeadm does (default true): pods without the
   * toleration are not scheduled there, and FailedScheduling messages count it as
   * "1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }".
   */
  controlPlane?: boolean;
}

/** Names, addresses and zones for the nodes of one cluster, as they are added. */
export class NodeLayout {
  private added = 0;
  private workers = 0;
  private readonly zones: readonly string[];

  constructor(private readonly defaults: MachineSpec & { zones?: readonly string[] }) {
    this.zones = defaults.zones && defaults.zones.length > 0 ? defaults.zones : DEFAULT_ZONES;
  }

  /** Carries on after the machines of a restored cluster: new nodes get the next names and addresses. */
  resume(configs: readonly NodeConfig[]): void {
    this.added = Math.max(this.added, configs.length);
    for (const { name } of configs) {
      if (!name.startsWith(WORKER_PREFIX)) continue;
      const n = name === WORKER_PREFIX ? 1 : Number(name.slice(WORKER_PREFIX.length));
      if (Number.isInteger(n)) this.workers = Math.max(this.workers, n);
    }
  }

  controlPlane(): NodeConfig {
    return this.config(`${CLUSTER_NAME}-control-plane`, this.zones[0]!, {
      labels: { [CONTROL_PLANE_ROLE]: '', [EXCLUDE_FROM_LOAD_BALANCERS]: '' },
      taints: [{ key: CONTROL_PLANE_ROLE, effect: 'NoSchedule' }],
    });
  }

  /** The next worker; `spec` overrides the cluster's machine defaults. */
  worker(spec: MachineSpec = {}): NodeConfig {
    const n = ++this.workers;
    const zone = spec.zone ?? this.defaults.zone ?? this.zones[(n - 1) % this.zones.length]!;
    const name = `${WORKER_PREFIX}${n === 1 ? '' : n}`;
    return this.config(name, zone, {
      cpu: spec.cpu ?? this.defaults.cpu,
      memory: spec.memory ?? this.defaults.memory,
      pods: spec.pods ?? this.defaults.pods,
      labels: { ...this.defaults.labels, ...spec.labels },
      taints: [...(this.defaults.taints ?? []), ...(spec.taints ?? [])],
    });
  }

  private config(name: string, zone: string, machine: Partial<NodeConfig>): NodeConfig {
    return { name, ...nodeAddresses(this.added++), zone, region: DEFAULT_REGION, ...machine };
  }
}
