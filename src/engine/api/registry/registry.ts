/**
 * The resources a cluster serves, with the lookups kube-apiserver and kubectl make: by
 * group/version/kind (decoding manifests), by group and resource (request URLs), and by the
 * loose names kubectl accepts ("deploy", "deployments.apps", "Deployment", "deployments.v1.apps").
 * Custom resources are registered and removed as their CRDs are established and deleted.
 */
import { BUILTIN_RESOURCES, groupResourceKey } from './builtin';
import { compareGroups, compareVersions } from './group-priority';
import type { ResourceInfo } from './types';

export class ResourceRegistry {
  private readonly resources: ResourceInfo[] = [];

  constructor(resources: readonly ResourceInfo[] = BUILTIN_RESOURCES) {
    for (const r of resources) this.register(r);
  }

  /** Adds (or replaces) the resource of a group-version. */
  register(info: ResourceInfo): void {
    this.unregister(info.group, info.version, info.resource);
    this.resources.push(info);
    this.resources.sort(discoveryOrder);
  }

  unregister(group: string, version: string, resource: string): void {
    const i = this.resources.findIndex((r) => r.group === group && r.version === version && r.resource === resource);
    if (i >= 0) this.resources.splice(i, 1);
  }

  /** Every served resource in discovery order: groups by priority, preferred versions first. */
  all(): readonly ResourceInfo[] {
    return this.resources;
  }

  byGvk(group: string, version: string, kind: string): ResourceInfo | undefined {
    return this.resources.find((r) => r.group === group && r.version === version && r.kind === kind);
  }

  /** The resource in `version`, or in the group's preferred version that serves it. */
  byGroupResource(group: string, resource: string, version?: string): ResourceInfo | undefined {
    return this.resources.find((r) => r.group === group && r.resource === resource && (version === undefined || r.version === version));
  }

  /** The versions of a group serving a kind, preferred first (for "no matches" errors too). */
  versionsOfKind(group: string, kind: string): string[] {
    return this.resources.filter((r) => r.group === group && r.kind === kind).map((r) => r.version);
  }

  /** The versions a group serves, preferred first. */
  groupVersions(group: string): string[] {
    return [...new Set(this.resources.filter((r) => r.group === group).map((r) => r.version))];
  }

  /**
   * kubectl's resolution of a resource argument: a plural, singular, short name or kind (any
   * case), optionally qualified as <name>.<group> or <name>.<version>.<group>. Where several
   * groups match, the first in discovery order wins (the core group's events over events.k8s.io).
   */
  resolve(arg: string): ResourceInfo | undefined {
    const lower = arg.toLowerCase();
    const parts = lower.split('.');
    if (parts.length >= 3) {
      const [name, version] = parts as [string, string];
      const group = parts.slice(2).join('.');
      const exact = this.resources.find((r) => r.group === group && r.version === version && matchesName(r, name));
      if (exact) return exact;
    }
    const dot = lower.indexOf('.');
    const name = dot < 0 ? lower : lower.slice(0, dot);
    const group = dot < 0 ? undefined : lower.slice(dot + 1);
    return this.resources.find((r) => (group === undefined || r.group === group) && matchesName(r, name));
  }

  /** The resources in a category, in discovery order, one version each ("all" for `kubectl get all`). */
  category(name: string): ResourceInfo[] {
    const seen = new Set<string>();
    return this.resources.filter((r) => {
      const key = groupResourceKey(r.group, r.resource);
      if (!r.categories.includes(name) || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
}

function matchesName(r: ResourceInfo, name: string): boolean {
  return r.resource === name || r.singular === name || r.shortNames.includes(name);
}

function discoveryOrder(a: ResourceInfo, b: ResourceInfo): number {
  if (a.group !== b.group) return compareGroups(a.group, b.group);
  if (a.version !== b.version) return compareVersions(a.group, a.version, b.version);
  return a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0;
}
