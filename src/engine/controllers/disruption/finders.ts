/**
 * Finding the controller of a budget's pod and its scale (disruption.go's finders), tried in
 * upstream's order: ReplicationController, Deployment (through its ReplicaSet), ReplicaSet
 * without a Deployment, StatefulSet (all from the informer caches), and finally any kind with a
 * scale subresource, read through the API.
 */
import type { ResourceRegistry } from '../../api/registry';
import { noKindMatchMessage } from '../../api/registry';
import type { OwnerReference } from '../../api/types';
import type { Client } from '../../client/client';
import { isNotFound } from '../../client/errors';
import type { Indexer } from '../../client/informer';
import { controllerOf } from '../util/controller-ref-manager';
import { cachedOwner } from '../util/owner-lookup';
import type { ControllerScale, ScaleFinder } from './budget';
import type { Workload } from './types';

export interface WorkloadCaches {
  replicationControllers: Indexer<Workload>;
  replicaSets: Indexer<Workload>;
  deployments: Indexer<Workload>;
  statefulSets: Indexer<Workload>;
}

/** schema.ParseGroupVersion. */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0]!, version: parts[1]! };
  throw new Error(`unexpected GroupVersion string: ${apiVersion}`);
}

function isKind(ref: OwnerReference, kind: string, groups: readonly string[]): boolean {
  const { group } = parseGroupVersion(ref.apiVersion);
  return ref.kind === kind && groups.includes(group);
}

/** spec.replicas as the API server defaults it. */
const replicas = (w: Workload): number => w.spec?.replicas ?? 1;

const scaleOf = (w: Workload): ControllerScale => ({ uid: w.metadata.uid ?? '', scale: replicas(w) });

function fromCaches(caches: WorkloadCaches): ScaleFinder[] {
  const replicationController: ScaleFinder = async (ref, ns) => {
    if (!isKind(ref, 'ReplicationController', [''])) return undefined;
    const rc = cachedOwner(caches.replicationControllers, ns, ref);
    return rc && scaleOf(rc);
  };
  const deployment: ScaleFinder = async (ref, ns) => {
    if (!isKind(ref, 'ReplicaSet', ['apps', 'extensions'])) return undefined;
    const rs = cachedOwner(caches.replicaSets, ns, ref);
    const rsRef = rs && controllerOf(rs);
    if (!rsRef || !isKind(rsRef, 'Deployment', ['apps', 'extensions'])) return undefined;
    const d = cachedOwner(caches.deployments, ns, rsRef);
    return d && scaleOf(d);
  };
  const replicaSet: ScaleFinder = async (ref, ns) => {
    if (!isKind(ref, 'ReplicaSet', ['apps', 'extensions'])) return undefined;
    const rs = cachedOwner(caches.replicaSets, ns, ref);
    if (!rs || controllerOf(rs)?.kind === 'Deployment') return undefined;
    return scaleOf(rs);
  };
  const statefulSet: ScaleFinder = async (ref, ns) => {
    if (!isKind(ref, 'StatefulSet', ['apps'])) return undefined;
    const ss = cachedOwner(caches.statefulSets, ns, ref);
    return ss && scaleOf(ss);
  };
  return [replicationController, deployment, replicaSet, statefulSet];
}

/** getScaleController: GET <resource>/<name>/scale for whatever kind the reference names. */
function fromScaleSubresource(registry: ResourceRegistry, client: Client): ScaleFinder {
  return async (ref, ns) => {
    const { group, version } = parseGroupVersion(ref.apiVersion);
    const info = registry.byGvk(group, version, ref.kind);
    if (!info) throw new Error(noKindMatchMessage(group, ref.kind, [version]));
    let scale;
    try {
      scale = await client.resource({ group, version, resource: info.resource }, ns).getScale(ref.name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      // NotFound also means "no scale subresource": say which.
      const implementsScale = info.subresources.some((s) => s.name === 'scale' && s.group === 'autoscaling' && s.version === 'v1' && s.kind === 'Scale');
      if (!implementsScale) throw new Error(`${group ? `${info.resource}.${group}` : info.resource} does not implement the scale subresource`);
      return undefined;
    }
    if (scale.metadata.uid !== ref.uid) return undefined;
    const spec = scale.spec as { replicas?: number } | undefined;
    return { uid: ref.uid, scale: spec?.replicas ?? 0 };
  };
}

export function scaleFinders(caches: WorkloadCaches, registry: ResourceRegistry, client: Client): ScaleFinder[] {
  return [...fromCaches(caches), fromScaleSubresource(registry, client)];
}
