/**
 * Scale, Rollout Restart and Rollout Undo, from a Deployment's (or for Scale a ReplicaSet's)
 * context menu or the command palette: the requests kubectl scale / rollout send, as the
 * current user.
 */
import * as vscode from 'vscode';
import type { KubeObject } from '../../engine/api/types';
import type { RemoteClusterHost as ClusterHost } from '../engine/remote-host';
import { REVISION_ANNOTATION as REVISION } from '../view-summary';
import type { ViewKind } from '../view-types';
import { clusterHost, elementArg, progress, reportOperation, type Services } from './services';

interface Workload {
  kind: 'Deployment' | 'ReplicaSet';
  namespace: string;
  name: string;
  object: KubeObject;
}

const KINDS: Partial<Record<ViewKind, Workload['kind']>> = { deployments: 'Deployment', replicasets: 'ReplicaSet' };

async function pickWorkload(host: ClusterHost, arg: unknown, kinds: ViewKind[], title: string): Promise<Workload | undefined> {
  const el = elementArg(arg);
  const fromTree = el && kinds.includes(el.kind) ? host.view.get(el.kind, el.key) : undefined;
  const candidates = fromTree ? [fromTree] : kinds.flatMap((k) => host.view.list(k));
  const toWorkload = (v: (typeof candidates)[number]): Workload => ({ kind: KINDS[v.kind]!, namespace: v.object.metadata.namespace ?? 'default', name: v.object.metadata.name ?? '', object: v.object });
  if (fromTree) return toWorkload(fromTree);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(`KubeSim: there is no ${kinds.map((k) => KINDS[k]).join(' or ')} to ${title.toLowerCase()}.`);
    return undefined;
  }
  const items = candidates.map((v) => ({ label: v.object.metadata.name ?? '', description: `${KINDS[v.kind]} in ${v.object.metadata.namespace}`, v }));
  const picked = await vscode.window.showQuickPick(items, { title: `KubeSim: ${title}` });
  return picked && toWorkload(picked.v);
}

async function scale(s: Services, arg: unknown): Promise<void> {
  const host = await clusterHost(s);
  const w = await pickWorkload(host, arg, ['deployments', 'replicasets'], 'Scale');
  if (!w) return;
  const current = (w.object.spec as { replicas?: number } | undefined)?.replicas ?? 1;
  const input = await vscode.window.showInputBox({
    title: `KubeSim: scale ${w.kind.toLowerCase()} ${w.name}`,
    prompt: 'Replicas',
    value: String(current),
    validateInput: (v) => (/^\d+$/.test(v.trim()) ? undefined : 'a whole number of replicas (0 or more)'),
  });
  if (input === undefined) return;
  const replicas = Number(input.trim());
  const result = await progress(`scaling ${w.name}`, () => host.scale({ kind: w.kind, namespace: w.namespace, name: w.name }, replicas));
  reportOperation(s, host, `kubectl scale ${w.kind.toLowerCase()}/${w.name} --replicas=${replicas} -n ${w.namespace}`, result);
}

async function restart(s: Services, arg: unknown): Promise<void> {
  const host = await clusterHost(s);
  const w = await pickWorkload(host, arg, ['deployments'], 'Rollout Restart');
  if (!w) return;
  const result = await progress(`restarting ${w.name}`, () => host.rolloutRestart({ kind: 'Deployment', namespace: w.namespace, name: w.name }));
  reportOperation(s, host, `kubectl rollout restart deployment/${w.name} -n ${w.namespace}`, result);
}

/** The Deployment's revisions, newest first, from its ReplicaSets' revision annotations. */
function revisions(host: ClusterHost, deployment: KubeObject): { revision: number; rs: KubeObject }[] {
  const uid = deployment.metadata.uid;
  return host.view
    .objects('replicasets')
    .filter((rs) => rs.metadata.ownerReferences?.some((o) => o.uid === uid && o.controller))
    .map((rs) => ({ revision: Number(rs.metadata.annotations?.[REVISION] ?? 0), rs }))
    .filter((r) => r.revision > 0)
    .sort((a, b) => b.revision - a.revision);
}

async function undo(s: Services, arg: unknown): Promise<void> {
  const host = await clusterHost(s);
  const w = await pickWorkload(host, arg, ['deployments'], 'Rollout Undo');
  if (!w) return;
  const images = (rs: KubeObject) => ((rs.spec as { template?: { spec?: { containers?: { image?: string }[] } } }).template?.spec?.containers ?? []).map((c) => c.image).join(', ');
  const items = [
    { label: 'Previous revision', description: 'kubectl rollout undo', revision: 0 },
    ...revisions(host, w.object).map((r) => ({ label: `Revision ${r.revision}`, description: `${r.rs.metadata.name} · ${images(r.rs)}`, revision: r.revision })),
  ];
  const picked = await vscode.window.showQuickPick(items, { title: `KubeSim: roll back deployment ${w.name}` });
  if (!picked) return;
  const result = await progress(`rolling back ${w.name}`, () => host.rolloutUndo({ namespace: w.namespace, name: w.name }, picked.revision || undefined));
  reportOperation(s, host, `kubectl rollout undo deployment/${w.name} -n ${w.namespace}${picked.revision ? ` --to-revision=${picked.revision}` : ''}`, result);
}

export function registerWorkloadCommands(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('kubesim.scale', (arg?: unknown) => scale(s, arg)),
    vscode.commands.registerCommand('kubesim.rolloutRestart', (arg?: unknown) => restart(s, arg)),
    vscode.commands.registerCommand('kubesim.rolloutUndo', (arg?: unknown) => undo(s, arg)),
  ];
}
