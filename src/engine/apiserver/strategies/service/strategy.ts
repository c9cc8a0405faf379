/**
 * Services (pkg/registry/core/service): ClusterIP and NodePort allocation on create and update,
 * values the client left out on update kept from the stored object (so `kubectl apply` does not
 * drop an allocated clusterIP), and release on delete. Single-stack IPv4, as kubesim's network is.
 */
import { invalid, Path, type ErrorList } from '../../../api/field';
import { parseIPSloppy } from '../../../api/ip';
import { internalServerError, invalidError } from '../../../api/status';
import { isObject, type JsonObject, type JsonValue, type KubeObject } from '../../../api/types';
import type { Random } from '../../../random';
import type { ResourceInfo } from '../../resources';
import { genericStrategy } from '../generic';
import type { Strategy, Transaction } from '../types';
import { ClusterIPRange, NodePortRange } from './ranges';

export interface ServiceNetwork {
  /** --service-cluster-ip-range; default 10.96.0.0/12. */
  clusterIPRange: string;
  /** --service-node-port-range; default 30000-32767. */
  nodePortBase: number;
  nodePortSize: number;
}

export const DEFAULT_SERVICE_NETWORK: ServiceNetwork = { clusterIPRange: '10.96.0.0/12', nodePortBase: 30000, nodePortSize: 2768 };

export class ServiceAllocators {
  readonly ips: ClusterIPRange;
  readonly ports: NodePortRange;

  constructor(
    network: ServiceNetwork,
    readonly random: Random,
  ) {
    this.ips = new ClusterIPRange(network.clusterIPRange);
    this.ports = new NodePortRange(network.nodePortBase, network.nodePortSize);
  }

  /** Marks a stored Service's values as taken (start-up, and after another writer). */
  restore(svc: KubeObject): void {
    for (const ip of clusterIPs(spec(svc))) this.ips.allocate(ip);
    for (const p of nodePorts(spec(svc))) this.ports.allocate(p);
  }

  release(svc: KubeObject): void {
    for (const ip of clusterIPs(spec(svc))) this.ips.release(ip);
    for (const p of nodePorts(spec(svc))) this.ports.release(p);
  }
}

const spec = (svc: KubeObject): JsonObject => (isObject(svc.spec) ? svc.spec : {});
const strings = (v: JsonValue | undefined): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const ports = (s: JsonObject): JsonObject[] => (Array.isArray(s.ports) ? s.ports.filter(isObject) : []);

function clusterIPs(s: JsonObject): string[] {
  return strings(s.clusterIPs).filter((ip) => ip !== '' && ip !== 'None');
}

function nodePorts(s: JsonObject): number[] {
  const out = ports(s)
    .map((p) => p.nodePort)
    .filter((n): n is number => typeof n === 'number' && n !== 0);
  if (typeof s.healthCheckNodePort === 'number' && s.healthCheckNodePort !== 0) out.push(s.healthCheckNodePort);
  return [...new Set(out)];
}

const needsClusterIP = (s: JsonObject): boolean => s.type !== 'ExternalName';
const needsNodePorts = (s: JsonObject): boolean => s.type === 'NodePort' || s.type === 'LoadBalancer';
const allocatesNodePorts = (s: JsonObject): boolean =>
  s.type === 'NodePort' || (s.type === 'LoadBalancer' && s.allocateLoadBalancerNodePorts !== false);
const needsHealthCheck = (s: JsonObject): boolean => s.type === 'LoadBalancer' && s.externalTrafficPolicy === 'Local';

/** An allocation in progress: what it took, released again unless the write commits. */
class Allocation implements Transaction {
  private readonly ips: string[] = [];
  private readonly ports: number[] = [];
  private readonly onCommit: (() => void)[] = [];

  constructor(
    private readonly a: ServiceAllocators,
    private readonly dryRun: boolean,
  ) {}

  takeIP(ip: string): string | undefined {
    const err = this.a.ips.allocate(ip);
    if (!err) this.ips.push(ip);
    return err;
  }

  nextIP(): string | undefined {
    const ip = this.a.ips.next(this.a.random);
    if (ip) this.takeIP(ip);
    return ip;
  }

  takePort(port: number): string | undefined {
    const err = this.a.ports.allocate(port);
    if (!err) this.ports.push(port);
    return err;
  }

  nextPort(): number | undefined {
    const port = this.a.ports.next(this.a.random);
    if (port !== undefined) this.takePort(port);
    return port;
  }

  /** Frees a value only once the write commits (the old object's values on update). */
  releaseOnCommit(fn: () => void): void {
    this.onCommit.push(fn);
  }

  commit(): void {
    // A dry run leaves the allocators as it found them.
    if (this.dryRun) return this.revert();
    for (const fn of this.onCommit) fn();
  }

  revert(): void {
    for (const ip of this.ips) this.a.ips.release(ip);
    for (const p of this.ports) this.a.ports.release(p);
    this.ips.length = 0;
    this.ports.length = 0;
  }
}

function fail(name: string, errs: ErrorList): never {
  throw invalidError({ group: '', name: 'Service' }, name, errs);
}

function initIPFamilies(s: JsonObject, name: string): void {
  if (!needsClusterIP(s)) return;
  if (typeof s.clusterIP === 'string' && s.clusterIP !== '' && strings(s.clusterIPs).length === 0) s.clusterIPs = [s.clusterIP];
  const errs: ErrorList = [];
  if (s.ipFamilyPolicy === 'RequireDualStack') {
    errs.push(invalid(Path.root('spec', 'ipFamilyPolicy'), s.ipFamilyPolicy, 'this cluster is not configured for dual-stack services'));
  }
  strings(s.ipFamilies).forEach((f, i) => {
    if (f !== 'IPv4') errs.push(invalid(Path.root('spec', 'ipFamilies').index(i), f, 'not configured on this cluster'));
  });
  if (errs.length > 0) fail(name, errs);
  if (s.ipFamilyPolicy === undefined) s.ipFamilyPolicy = 'SingleStack';
  if (strings(s.ipFamilies).length === 0) s.ipFamilies = ['IPv4'];
}

function allocateClusterIP(s: JsonObject, name: string, alloc: Allocation): void {
  if (!needsClusterIP(s) || s.clusterIP === 'None' || strings(s.clusterIPs)[0] === 'None') return;
  const requested = strings(s.clusterIPs)[0] ?? '';
  // An address that does not parse is left for validation to report.
  if (requested !== '' && !parseIPSloppy(requested)) return;
  if (requested === '') {
    const ip = alloc.nextIP();
    if (!ip) throw internalServerError('failed to allocate a serviceIP: range is full');
    s.clusterIP = ip;
    s.clusterIPs = [ip];
    return;
  }
  const err = alloc.takeIP(requested);
  if (err) fail(name, [invalid(Path.root('spec', 'clusterIPs'), s.clusterIPs, `failed to allocate IP ${requested}: ${err}`)]);
  s.clusterIP = requested;
}

/** Node ports for every service port; ports sharing a port number share a node port. */
function allocateNodePorts(s: JsonObject, name: string, alloc: Allocation, keep: ReadonlySet<number>): void {
  if (!needsNodePorts(s)) return;
  const byPort = new Map<number, number>();
  ports(s).forEach((p, i) => {
    const requested = typeof p.nodePort === 'number' ? p.nodePort : 0;
    if (requested === 0 && !allocatesNodePorts(s)) return;
    const port = typeof p.port === 'number' ? p.port : 0;
    const shared = byPort.get(port);
    if (shared !== undefined && (requested === 0 || requested === shared)) {
      p.nodePort = shared;
      return;
    }
    if (requested !== 0) {
      if (!keep.has(requested)) {
        const err = alloc.takePort(requested);
        if (err) fail(name, [invalid(Path.root('spec', 'ports').index(i).child('nodePort'), requested, err)]);
      }
      byPort.set(port, requested);
      return;
    }
    const next = alloc.nextPort();
    if (next === undefined) throw internalServerError('failed to allocate a nodePort: range is full');
    p.nodePort = next;
    byPort.set(port, next);
  });
}

function allocateHealthCheck(s: JsonObject, alloc: Allocation, keep: ReadonlySet<number>): void {
  if (!needsHealthCheck(s)) return;
  const requested = typeof s.healthCheckNodePort === 'number' ? s.healthCheckNodePort : 0;
  if (requested !== 0) {
    if (keep.has(requested)) return;
    const err = alloc.takePort(requested);
    if (err) throw internalServerError(`failed to allocate requested HealthCheck NodePort ${requested}: ${err}`);
    return;
  }
  const next = alloc.nextPort();
  if (next === undefined) throw internalServerError('failed to allocate a HealthCheck NodePort 0: range is full');
  s.healthCheckNodePort = next;
}

/** Values the update left out are taken from the stored Service (patchAllocatedValues). */
function keepAllocatedValues(s: JsonObject, old: JsonObject): void {
  if (needsClusterIP(s) && needsClusterIP(old)) {
    if (!s.clusterIP && old.clusterIP !== undefined) s.clusterIP = old.clusterIP;
    if (strings(s.clusterIPs).length === 0 && old.clusterIPs !== undefined) s.clusterIPs = structuredClone(old.clusterIPs);
  }
  if (needsNodePorts(s) && needsNodePorts(old)) {
    const oldByPort = new Map<string, number>();
    for (const p of ports(old)) if (typeof p.nodePort === 'number') oldByPort.set(`${String(p.port)}/${String(p.protocol ?? 'TCP')}`, p.nodePort);
    for (const p of ports(s)) {
      if (p.nodePort === undefined || p.nodePort === 0) {
        const kept = oldByPort.get(`${String(p.port)}/${String(p.protocol ?? 'TCP')}`);
        if (kept !== undefined) p.nodePort = kept;
      }
    }
  }
  if (needsHealthCheck(s) && needsHealthCheck(old) && !s.healthCheckNodePort && old.healthCheckNodePort !== undefined) {
    s.healthCheckNodePort = old.healthCheckNodePort;
  }
}

const sameClusterIPs = (a: JsonObject, b: JsonObject): boolean => {
  const x = strings(a.clusterIPs);
  const y = strings(b.clusterIPs);
  return x.length === y.length && x.every((ip, i) => ip === y[i]);
};

/**
 * An update's clusterIP and clusterIPs brought in line before anything reads them
 * (normalizeClusterIPs): a client that sent the singular field only (kubectl apply of a
 * manifest that names a clusterIP) changes the plural with it, so validation reports the change
 * of an allocated address, not a mismatch between the two fields.
 */
function normalizeClusterIPs(s: JsonObject, old: JsonObject): void {
  const ip = typeof s.clusterIP === 'string' ? s.clusterIP : '';
  const oldIP = typeof old.clusterIP === 'string' ? old.clusterIP : '';
  if (strings(old.clusterIPs).length > 0 && strings(s.clusterIPs).length === 0 && oldIP === ip) s.clusterIPs = structuredClone(old.clusterIPs);
  if (oldIP === ip) return;
  if (oldIP !== '' && ip === '') {
    if (sameClusterIPs(old, s)) delete s.clusterIPs;
  } else if (sameClusterIPs(old, s)) s.clusterIPs = [ip];
}

export function serviceStrategy(type: ResourceInfo, allocators: ServiceAllocators): Strategy {
  const base = genericStrategy(type, { returnDeletedObject: true, emptyStatus: () => ({ loadBalancer: {} }) });
  return {
    ...base,
    beginCreate(obj, ctx) {
      const s = spec(obj);
      const name = obj.metadata.name ?? '';
      const alloc = new Allocation(allocators, ctx.dryRun);
      try {
        initIPFamilies(s, name);
        allocateClusterIP(s, name, alloc);
        allocateNodePorts(s, name, alloc, new Set());
        allocateHealthCheck(s, alloc, new Set());
      } catch (err) {
        alloc.revert();
        throw err;
      }
      obj.spec = s;
      return alloc;
    },
    beginUpdate(obj, old, ctx) {
      const s = spec(obj);
      const o = spec(old);
      const name = obj.metadata.name ?? '';
      const alloc = new Allocation(allocators, ctx.dryRun);
      try {
        keepAllocatedValues(s, o);
        normalizeClusterIPs(s, o);
        initIPFamilies(s, name);
        if (needsClusterIP(s) && !needsClusterIP(o)) allocateClusterIP(s, name, alloc);
        if (!needsClusterIP(s) && needsClusterIP(o)) {
          for (const ip of clusterIPs(o)) alloc.releaseOnCommit(() => allocators.ips.release(ip));
        }
        const held = new Set(nodePorts(o));
        allocateNodePorts(s, name, alloc, held);
        allocateHealthCheck(s, alloc, held);
        const still = new Set(nodePorts(s));
        for (const p of held) if (!still.has(p)) alloc.releaseOnCommit(() => allocators.ports.release(p));
      } catch (err) {
        alloc.revert();
        throw err;
      }
      obj.spec = s;
      return alloc;
    },
    afterDelete(obj) {
      allocators.release(obj);
    },
  };
}
