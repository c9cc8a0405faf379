/**
 * kube-apiserver's APIService registration (kube-aggregator's autoregister controller, with
 * kube-apiserver's apiServicesToRegister and the crdregistration controller), run inside the API
 * server as kube-apiserver runs it:
 * - at start, a local APIService `<version>.<group>` for every built-in group-version served,
 *   with kube-apiserver's priorities, labelled `kube-aggregator.kubernetes.io/automanaged: onstart`
 *   (created when missing, its spec put back when it differs, once);
 * - for every served version of every CustomResourceDefinition, one with priority 1000/100
 *   labelled `automanaged: "true"`, kept in step continuously and deleted when the version is
 *   no longer served or the CRD is gone.
 * kube-aggregator's own group (apiregistration.k8s.io) has no APIService. Writes go through the
 * loopback client, as requests of system:apiserver.
 */
import type { Clock } from '../../clock';
import { apiServicePriority, CRD_API_SERVICE_PRIORITY } from '../../api/registry/group-priority';
import { BUILTIN_RESOURCES } from '../../api/registry';
import { isObject, type JsonObject, type KubeObject } from '../../api/types';
import { APISERVER_USER } from '../authn/user';
import type { ApiRequest, ApiResponse } from '../request';
import type { ObjectReader } from '../storage/reader';
import { NameQueue } from '../name-queue';
import { CRDS } from '../customresources/controller';

export const API_SERVICES = { group: 'apiregistration.k8s.io', resource: 'apiservices' };
export const AUTOMANAGED_LABEL = 'kube-aggregator.kubernetes.io/automanaged';

interface Desired {
  readonly group: string;
  readonly version: string;
  readonly groupPriorityMinimum: number;
  readonly versionPriority: number;
  /** onstart: synced once when the server starts; true: kept in step. */
  readonly manage: 'onstart' | 'true';
}

export interface AutoRegisterDeps {
  clock: Clock;
  reader: ObjectReader;
  loopback(request: ApiRequest): Promise<ApiResponse>;
}

const nameOf = (group: string, version: string): string => `${version}.${group}`;

export class APIServiceRegistration {
  private readonly desired = new Map<string, Desired>();
  private readonly queue: NameQueue;
  private stopFollowing: (() => void) | undefined;

  constructor(private readonly deps: AutoRegisterDeps) {
    this.queue = new NameQueue(deps.clock, 'kube-apiserver-autoregistration: sync APIServices', (name) => this.sync(name));
  }

  start(): void {
    const seen = new Set<string>();
    // kube-apiserver's own group-versions (apiServicesToRegister lists its delegates' paths):
    // not custom resources, nor what the aggregator serves for other API servers.
    for (const info of BUILTIN_RESOURCES) {
      const key = `${info.group}/${info.version}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const p = apiServicePriority(info.group, info.version);
      if (!p) continue;
      this.want({ group: info.group, version: info.version, groupPriorityMinimum: p.group, versionPriority: p.version, manage: 'onstart' });
    }
    this.stopFollowing = this.deps.reader.follow(CRDS, () => this.syncCrds());
  }

  stop(): void {
    this.stopFollowing?.();
  }

  /** The CRD registration controller: an APIService per served version of every CRD. */
  private syncCrds(): void {
    const wanted = new Set<string>();
    for (const crd of this.deps.reader.cached(CRDS)) {
      const spec = isObject(crd.spec) ? crd.spec : {};
      const group = typeof spec.group === 'string' ? spec.group : '';
      for (const v of Array.isArray(spec.versions) ? spec.versions : []) {
        if (!isObject(v) || v.served !== true || typeof v.name !== 'string') continue;
        const name = nameOf(group, v.name);
        wanted.add(name);
        // A built-in group-version keeps its own APIService.
        if (this.desired.get(name)?.manage === 'onstart') continue;
        this.want({ group, version: v.name, groupPriorityMinimum: CRD_API_SERVICE_PRIORITY.group, versionPriority: CRD_API_SERVICE_PRIORITY.version, manage: 'true' });
      }
    }
    for (const [name, d] of this.desired) {
      if (d.manage === 'true' && !wanted.has(name)) {
        this.desired.delete(name);
        this.enqueue(name);
      }
    }
  }

  private want(d: Desired): void {
    const name = nameOf(d.group, d.version);
    const prev = this.desired.get(name);
    if (prev && JSON.stringify(prev) === JSON.stringify(d)) return;
    this.desired.set(name, d);
    this.enqueue(name);
  }

  private enqueue(name: string): void {
    this.queue.add(name);
  }

  private async sync(name: string): Promise<void> {
    const d = this.desired.get(name);
    const current = await this.deps.reader.get(API_SERVICES, '', name);
    if (!d) {
      // Only an APIService this controller keeps in step is removed with its CRD version.
      if (current && current.metadata.labels?.[AUTOMANAGED_LABEL] === 'true') await this.request({ verb: 'delete', name });
      return;
    }
    const spec: JsonObject = { version: d.version, groupPriorityMinimum: d.groupPriorityMinimum, versionPriority: d.versionPriority };
    if (d.group) spec.group = d.group;
    if (!current) {
      const body: KubeObject = { apiVersion: 'apiregistration.k8s.io/v1', kind: 'APIService', metadata: { name, labels: { [AUTOMANAGED_LABEL]: d.manage } }, spec };
      await this.request({ verb: 'create', body: { object: body as JsonObject } });
      return;
    }
    const cur = isObject(current.spec) ? current.spec : {};
    const same = cur.service === undefined && (cur.group ?? '') === d.group && cur.version === d.version && cur.groupPriorityMinimum === d.groupPriorityMinimum && cur.versionPriority === d.versionPriority;
    if (same && current.metadata.labels?.[AUTOMANAGED_LABEL] === d.manage) return;
    const next: KubeObject = { ...current, metadata: { ...current.metadata, labels: { ...(current.metadata.labels ?? {}), [AUTOMANAGED_LABEL]: d.manage } }, spec };
    await this.request({ verb: 'update', name, body: { object: next as JsonObject } });
  }

  private async request(r: Pick<ApiRequest, 'verb' | 'name' | 'body'>): Promise<void> {
    await this.deps.loopback({ ...r, user: APISERVER_USER, group: API_SERVICES.group, version: 'v1', resource: API_SERVICES.resource });
  }
}
