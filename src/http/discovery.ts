/**
 * Discovery documents from the resource registry, as kube-apiserver serves them: the legacy
 * /api, /api/v1, /apis, /apis/<group> and /apis/<group>/<version> lists, and aggregated
 * discovery (apidiscovery.k8s.io/v2 APIGroupDiscoveryList) for /api and /apis.
 */
import { createHash } from 'node:crypto';
import type { ResourceRegistry } from '../engine/api/registry';
import type { ResourceInfo, Subresource } from '../engine/api/registry/types';

const groupVersionOf = (group: string, version: string): string => (group ? `${group}/${version}` : version);

/** discovery.StorageVersionHash: the first 8 bytes of sha256("group/version/kind"), base64. */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

/** The version a resource is stored in, whose hash every served version shares. */
function storageVersionOf(r: ResourceInfo): [string, string, string] {
  if (r.group === 'autoscaling' && r.resource === 'horizontalpodautoscalers') return ['autoscaling', 'v2', r.kind];
  if (r.group === 'events.k8s.io' && r.resource === 'events') return ['', 'v1', 'Event'];
  return [r.group, r.version, r.kind];
}

/** The groups in discovery order, each with its versions, preferred first. */
export function servedGroups(registry: ResourceRegistry): { name: string; versions: string[] }[] {
  const groups = new Map<string, string[]>();
  for (const r of registry.all()) {
    const versions = groups.get(r.group) ?? [];
    if (!versions.includes(r.version)) versions.push(r.version);
    groups.set(r.group, versions);
  }
  return [...groups].map(([name, versions]) => ({ name, versions }));
}

function resourcesOf(registry: ResourceRegistry, group: string, version: string): ResourceInfo[] {
  return registry
    .all()
    .filter((r) => r.group === group && r.version === version)
    .sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
}

/** A subresource's kind differs in group-version from its parent only for scale, eviction, token. */
function subresourceGroupVersion(parent: ResourceInfo, s: Subresource): { group?: string; version?: string } {
  return s.group === parent.group && s.version === parent.version ? {} : { group: s.group, version: s.version };
}

function legacyResource(r: ResourceInfo): Record<string, unknown> {
  const out: Record<string, unknown> = { name: r.resource, singularName: r.singular, namespaced: r.namespaced, kind: r.kind, verbs: r.verbs };
  if (r.shortNames.length > 0) out.shortNames = r.shortNames;
  if (r.categories.length > 0) out.categories = r.categories;
  if (r.storagePrefix !== undefined) out.storageVersionHash = storageVersionHash(...storageVersionOf(r));
  return out;
}

function legacySubresource(r: ResourceInfo, s: Subresource): Record<string, unknown> {
  return { name: `${r.resource}/${s.name}`, singularName: '', namespaced: r.namespaced, ...subresourceGroupVersion(r, s), kind: s.kind, verbs: s.verbs };
}

/** /api/v1 or /apis/<group>/<version>; undefined for a group-version not served. */
export function apiResourceList(registry: ResourceRegistry, group: string, version: string): Record<string, unknown> | undefined {
  const resources = resourcesOf(registry, group, version);
  if (resources.length === 0) return undefined;
  const entries = resources.flatMap((r) => [legacyResource(r), ...r.subresources.map((s) => legacySubresource(r, s))]);
  entries.sort((a, b) => (String(a.name) < String(b.name) ? -1 : String(a.name) > String(b.name) ? 1 : 0));
  const head: Record<string, unknown> = group ? { kind: 'APIResourceList', apiVersion: 'v1' } : { kind: 'APIResourceList' };
  return { ...head, groupVersion: groupVersionOf(group, version), resources: entries };
}

/** /api: the core group's versions and the address clients reach it at. */
export function apiVersions(serverAddress: string): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

function apiGroup(name: string, versions: string[]): Record<string, unknown> {
  const gv = (v: string) => ({ groupVersion: `${name}/${v}`, version: v });
  return { name, versions: versions.map(gv), preferredVersion: gv(versions[0]!) };
}

/** /apis: every named group. */
export function apiGroupList(registry: ResourceRegistry): Record<string, unknown> {
  const groups = servedGroups(registry).filter((g) => g.name !== '');
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map((g) => apiGroup(g.name, g.versions)) };
}

/** /apis/<group>; undefined for a group not served. */
export function apiGroupDocument(registry: ResourceRegistry, group: string): Record<string, unknown> | undefined {
  const g = servedGroups(registry).find((x) => x.name === group && group !== '');
  return g ? { kind: 'APIGroup', apiVersion: 'v1', ...apiGroup(g.name, g.versions) } : undefined;
}

function aggregatedResource(r: ResourceInfo): Record<string, unknown> {
  const out: Record<string, unknown> = {
    resource: r.resource,
    responseKind: { group: '', version: '', kind: r.kind },
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singular,
    verbs: r.verbs,
  };
  if (r.shortNames.length > 0) out.shortNames = r.shortNames;
  if (r.categories.length > 0) out.categories = r.categories;
  if (r.subresources.length > 0) {
    out.subresources = [...r.subresources]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((s) => {
        const gv = subresourceGroupVersion(r, s);
        return { subresource: s.name, responseKind: { group: gv.group ?? '', version: gv.version ?? '', kind: s.kind }, verbs: s.verbs };
      });
  }
  return out;
}

/**
 * Aggregated discovery: the core group for /api, the named groups for /apis. A group-version
 * whose APIService is not available is listed without resources and with freshness Stale, as
 * the aggregator lists what it could not fetch (clients then treat it as failed).
 */
export function aggregatedDiscovery(registry: ResourceRegistry, core: boolean, stale: (group: string, version: string) => boolean = () => false): Record<string, unknown> {
  const groups = servedGroups(registry).filter((g) => (g.name === '') === core);
  return {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: groups.map((g) => ({
      metadata: g.name ? { name: g.name, creationTimestamp: null } : { creationTimestamp: null },
      versions: g.versions.map((v) =>
        stale(g.name, v) ? { version: v, resources: [], freshness: 'Stale' } : { version: v, resources: resourcesOf(registry, g.name, v).map(aggregatedResource), freshness: 'Current' },
      ),
    })),
  };
}
