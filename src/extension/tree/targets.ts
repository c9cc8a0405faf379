/**
 * What a click on a Cluster tree item opens: the object's details in the control-plane panel
 * (the view the map and the graph open too), an Event's the object it is about, and nothing for
 * what the panel does not draw (a Namespace: it opens live instead).
 */
import { own, table } from '../../engine/api/own';
import type { ViewKind as PanelKind } from '../../protocol/cluster-state';
import type { ViewKind, ViewObject } from '../view-types';

const PANEL_KINDS: Partial<Record<ViewKind, PanelKind>> = { nodes: 'Node', pods: 'Pod', deployments: 'Deployment', replicasets: 'ReplicaSet', services: 'Service', endpointslices: 'EndpointSlice' };
const BY_KIND = table<PanelKind>({ Node: 'Node', Pod: 'Pod', Deployment: 'Deployment', ReplicaSet: 'ReplicaSet', Service: 'Service', EndpointSlice: 'EndpointSlice' });

/** The panel's object for a tree item: itself, or for an Event the object it is about. */
export function detailsTarget(v: ViewObject): { kind: PanelKind; namespace?: string; name: string } | undefined {
  const kind = PANEL_KINDS[v.kind];
  if (kind) return { kind, name: v.object.metadata.name ?? '', ...(v.object.metadata.namespace ? { namespace: v.object.metadata.namespace } : {}) };
  if (v.kind !== 'events') return undefined;
  const about = ((v.object as { involvedObject?: unknown }).involvedObject ?? (v.object as { regarding?: unknown }).regarding) as { kind?: string; namespace?: string; name?: string } | undefined;
  const target = about?.kind ? own(BY_KIND, about.kind) : undefined;
  if (!target || !about?.name) return undefined;
  return { kind: target, name: about.name, ...(about.namespace ? { namespace: about.namespace } : {}) };
}

