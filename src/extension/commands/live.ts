/**
 * Open Live Object: the object behind a tree item, the objects the current manifest names, or
 * one picked from the cluster, as a read-only YAML document that follows the object. Show
 * Details (a tree item's click): the object's details in the control-plane panel, the view the
 * map and the graph open too; an Event's, the object it is about; a Namespace (which the panel
 * does not draw) opens live.
 */
import * as vscode from 'vscode';
import { loadPanel } from '../host-loader';
import { detailsTarget } from '../tree/targets';
import type { RemoteClusterHost as ClusterHost } from '../engine/remote-host';
import type { ObjectRef } from '../manifest-objects';
import { VIEW_KINDS, type ViewKind, type ViewObject } from '../view-types';
import { clusterHost, elementArg, type Services } from './services';

const COORDINATES: Record<ViewKind, Omit<ObjectRef, 'name' | 'namespace'>> = {
  nodes: { group: '', version: 'v1', resource: 'nodes', kind: 'Node' },
  namespaces: { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace' },
  deployments: { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment' },
  replicasets: { group: 'apps', version: 'v1', resource: 'replicasets', kind: 'ReplicaSet' },
  horizontalpodautoscalers: { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler' },
  pods: { group: '', version: 'v1', resource: 'pods', kind: 'Pod' },
  services: { group: '', version: 'v1', resource: 'services', kind: 'Service' },
  endpointslices: { group: 'discovery.k8s.io', version: 'v1', resource: 'endpointslices', kind: 'EndpointSlice' },
  events: { group: '', version: 'v1', resource: 'events', kind: 'Event' },
};

function refOf(v: ViewObject): ObjectRef {
  const ns = v.object.metadata.namespace;
  return { ...COORDINATES[v.kind], name: v.object.metadata.name ?? '', ...(ns ? { namespace: ns } : {}) };
}

const label = (r: ObjectRef) => `${r.group ? `${r.kind.toLowerCase()}.${r.group}` : r.kind.toLowerCase()}/${r.name}`;

async function targets(host: ClusterHost, arg: unknown): Promise<ObjectRef[]> {
  const el = elementArg(arg);
  if (el) {
    const v = host.view.get(el.kind, el.key);
    return v ? [refOf(v)] : [];
  }
  const doc = arg instanceof vscode.Uri ? await vscode.workspace.openTextDocument(arg) : vscode.window.activeTextEditor?.document;
  if (doc && doc.languageId === 'yaml' && doc.uri.scheme !== 'kubesim') {
    const refs = await host.manifestObjects(vscode.workspace.asRelativePath(doc.uri, false), doc.getText());
    if (refs.length > 0) return refs;
  }
  return VIEW_KINDS.filter((k) => k !== 'events').flatMap((k) => host.view.list(k).map(refOf));
}

export function registerLiveCommands(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('kubesim.showObjectDetails', async (arg?: unknown) => {
      const el = elementArg(arg);
      if (!el) return;
      const host = await clusterHost(s);
      const v = host.view.get(el.kind, el.key);
      if (!v) return;
      const target = detailsTarget(v);
      if (!target) return s.live.open(refOf(v));
      loadPanel(s.context.extensionPath).showPanel(s.context, s.session).showDetails(target);
    }),
    vscode.commands.registerCommand('kubesim.openLiveObject', async (arg?: unknown) => {
      const host = await clusterHost(s);
      const refs = await targets(host, arg);
      let ref = refs.length === 1 ? refs[0] : undefined;
      if (refs.length > 1) {
        const items = refs.map((r) => ({ label: label(r), description: r.namespace, r }));
        ref = (await vscode.window.showQuickPick(items, { title: 'KubeSim: Open Live Object', matchOnDescription: true }))?.r;
      }
      if (ref) await s.live.open(ref);
    }),
  ];
}
