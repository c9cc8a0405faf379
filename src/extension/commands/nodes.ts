/**
 * Add Node, and Cordon / Uncordon / Drain / Stop / Start Node, from a node's context menu or
 * the command palette (which asks for the node). Cordon, uncordon and drain are what kubectl
 * sends; stop and start silence and revive the node's kubelet.
 */
import * as vscode from 'vscode';
import type { RemoteClusterHost as ClusterHost } from '../engine/remote-host';
import type { OperationReply as OperationResult } from '../../protocol/engine';
import { clusterHost, elementArg, progress, reportOperation, type Services } from './services';

async function pickNode(host: ClusterHost, arg: unknown, title: string): Promise<string | undefined> {
  const el = elementArg(arg);
  if (el?.kind === 'nodes') return el.key;
  const items = host.nodeNames().map((name) => ({ label: name, description: host.isNodeRunning(name) ? undefined : 'kubelet stopped' }));
  return (await vscode.window.showQuickPick(items, { title: `KubeSim: ${title}`, placeHolder: 'node' }))?.label;
}

function nodeCommand(s: Services, title: string, command: (node: string) => string, run: (host: ClusterHost, node: string) => Promise<OperationResult>) {
  return async (arg?: unknown): Promise<void> => {
    const host = await clusterHost(s);
    const node = await pickNode(host, arg, title);
    if (!node) return;
    const result = await progress(`${title.toLowerCase()} ${node}`, () => run(host, node));
    reportOperation(s, host, command(node), result);
    // A kubelet's running state is no API event: redraw the node.
    s.tree.refreshAll();
  };
}

export function registerNodeCommands(s: Services): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand('kubesim.addNode', async () => {
      const host = await clusterHost(s);
      const result = await progress('adding a node', () => host.addNode(s.settings()));
      reportOperation(s, host, 'kubeadm join   # a new worker node', result);
    }),
    vscode.commands.registerCommand('kubesim.cordonNode', nodeCommand(s, 'Cordon Node', (n) => `kubectl cordon ${n}`, (h, n) => h.cordon(n))),
    vscode.commands.registerCommand('kubesim.uncordonNode', nodeCommand(s, 'Uncordon Node', (n) => `kubectl uncordon ${n}`, (h, n) => h.uncordon(n))),
    vscode.commands.registerCommand(
      'kubesim.drainNode',
      nodeCommand(s, 'Drain Node', (n) => `kubectl drain ${n} --ignore-daemonsets --delete-emptydir-data`, (h, n) => h.drain(n)),
    ),
    vscode.commands.registerCommand('kubesim.stopNode', nodeCommand(s, 'Stop Node', (n) => `systemctl stop kubelet   # on ${n}`, (h, n) => h.stopNode(n))),
    vscode.commands.registerCommand('kubesim.startNode', nodeCommand(s, 'Start Node', (n) => `systemctl start kubelet   # on ${n}`, (h, n) => h.startNode(n))),
  ];
}
