/**
 * The etcd member actions (Stop, Start, Partition, Heal, Slow disk) and etcd's maintenance
 * (Compact, Defragment, Disarm Alarms) from the sidebar's etcd section (inline, context menu and
 * title bar), the etcd view's buttons or the command palette (which asks for the member), and
 * Show etcd, which opens the control-plane panel on its etcd tab. Each runs under a progress
 * notification, writes etcdctl's lines under the command one would run to the output, and says
 * how it went in the status bar (an error as a notification). The result is returned, for the
 * etcd view to show.
 */
import * as vscode from 'vscode';
import type { EtcdMemberActionWire as EtcdMemberAction } from '../../protocol/engine';
import type { EtcdTreeProvider } from '../tree/etcd';
import { clusterHost, progress, reportOperation, type Services } from './services';
import type { OperationReply } from '../../protocol/engine';

const TITLES: Record<EtcdMemberAction, string> = {
  stop: 'Stop etcd Member',
  start: 'Start etcd Member',
  partition: 'Partition etcd Member',
  heal: 'Heal etcd Member',
  slow: 'Slow etcd Member’s Disk',
  compact: 'Compact etcd',
  defragment: 'Defragment etcd Member',
  disarm: 'Disarm etcd Alarms',
};
/** What one would run on a real machine, for the output's header. */
const COMMANDS: Record<EtcdMemberAction, (m: string) => string> = {
  stop: (m) => `systemctl stop etcd   # on ${m}`,
  start: (m) => `systemctl start etcd   # on ${m}`,
  partition: (m) => `iptables -A INPUT -p tcp --dport 2380 -j DROP   # on ${m}: peers cut off`,
  heal: (m) => `iptables -D INPUT -p tcp --dport 2380 -j DROP   # on ${m}; disk back to normal`,
  slow: (m) => `# ${m}'s disk slows down: each WAL fsync takes 1 s`,
  compact: (m) => `etcdctl --endpoints=${m} compact $(etcdctl --endpoints=${m} endpoint status -w json | jq .[0].Status.header.revision)`,
  defragment: (m) => `etcdctl --endpoints=${m} defrag`,
  disarm: (m) => `etcdctl --endpoints=${m} alarm disarm`,
};

/** Compact and Disarm act on the cluster (through Raft): any running member serves as the endpoint. */
const CLUSTER_WIDE = new Set<EtcdMemberAction>(['compact', 'disarm']);

function memberArg(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null && (arg as { type?: unknown }).type === 'etcdMember' && typeof (arg as { member?: unknown }).member === 'string') return (arg as { member: string }).member;
  return undefined;
}

export function registerEtcdCommands(s: Services, tree: EtcdTreeProvider, showEtcd: (member?: string) => Promise<void>): vscode.Disposable[] {
  const action = (a: EtcdMemberAction) => async (arg?: unknown): Promise<OperationReply | undefined> => {
    const host = await clusterHost(s);
    let member = memberArg(arg);
    if (!member && CLUSTER_WIDE.has(a)) member = (host.etcdMembers() ?? []).find((m) => m.state === 'running' && m.role === 'leader')?.name ?? (host.etcdMembers() ?? []).find((m) => m.state === 'running')?.name;
    if (!member) {
      const members = host.etcdMembers() ?? [];
      const pick = await vscode.window.showQuickPick(
        members.map((m) => ({ label: m.name, description: `${m.state === 'stopped' ? 'stopped' : m.role} · term ${m.term}${m.partitioned ? ' · partitioned' : ''}${m.slowFsyncMs !== undefined ? ' · slow disk' : ''}` })),
        { title: `KubeSim: ${TITLES[a]}`, placeHolder: 'etcd member' },
      );
      member = pick?.label;
    }
    if (!member) return undefined;
    const name = member;
    const title = CLUSTER_WIDE.has(a) ? TITLES[a].toLowerCase() : `${TITLES[a].toLowerCase()} ${name}`;
    const result = await progress(`${title}…`, () => host.etcdAction(a, name));
    reportOperation(s, host, COMMANDS[a](name), result, { quiet: true });
    tree.refresh();
    return result;
  };
  return [
    vscode.commands.registerCommand('kubesim.etcd.stopMember', action('stop')),
    vscode.commands.registerCommand('kubesim.etcd.startMember', action('start')),
    vscode.commands.registerCommand('kubesim.etcd.partitionMember', action('partition')),
    vscode.commands.registerCommand('kubesim.etcd.healMember', action('heal')),
    vscode.commands.registerCommand('kubesim.etcd.slowMember', action('slow')),
    vscode.commands.registerCommand('kubesim.etcd.compact', action('compact')),
    vscode.commands.registerCommand('kubesim.etcd.defragmentMember', action('defragment')),
    vscode.commands.registerCommand('kubesim.etcd.disarmAlarms', action('disarm')),
    vscode.commands.registerCommand('kubesim.showEtcd', (arg?: unknown) => showEtcd(memberArg(arg))),
  ];
}
