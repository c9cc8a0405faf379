/**
 * The pipeline's helpers over the resource registry's entries (src/engine/api/registry).
 */
import type { ResourceInfo } from '../api/registry/types';
import type { GroupThing } from '../api/status';

export type { ResourceInfo };

export const apiVersionOf = (t: { group: string; version: string }): string => (t.group ? `${t.group}/${t.version}` : t.version);

/** The GroupResource as messages print it: deployments.apps, pods. */
export const groupResource = (r: ResourceInfo): GroupThing => ({ group: r.group, name: r.resource });

/** The GroupKind as Invalid errors carry it: Deployment.apps, Pod. */
export const groupKind = (r: ResourceInfo): GroupThing => ({ group: r.group, name: r.kind });

export const hasSubresource = (r: ResourceInfo, name: string): boolean => r.subresources.some((s) => s.name === name);
