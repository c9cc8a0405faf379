/**
 * The etcd member actions (Stop, Start, Partition, Heal, Slow disk) from the sidebar's etcd
 * section (inline and context menu), the etcd view's buttons or the command palette (which asks
 * for the member), and Show etcd, which opens the control-plane panel on its etcd tab.
 */
import * as vscode from 'vscode';
import type { EtcdMemberAction } from '../cluster-host';
import type { EtcdTreeProvider } from '../tree/etcd';
import { clusterHost, progress, reportOperation, type Services } from './services';

const TITLES: Record<EtcdMemberAction, string> = { stop: 'Stop etcd Member', start: 'Start etcd Member', partition: 'Partition etcd Member', heal: 'Heal etcd Member', slow: 'Slow etcd Member’s Disk' };
/** What one would run on a real machine, for the output's header. */
const COMMANDS: Record<EtcdMemberAction, (m: string) => string> = {
  stop: (m) => `systemctl stop etcd   # on ${m}`,
  start: (m) => `systemctl start etcd   # on ${m}`,
  partition: (m) => `iptables -A INPUT -p tcp --dport 2380 -j DROP   # on ${m}: peers cut off`,
  heal: (m) => `iptables -D INPUT -p tcp --dport 2380 -j DROP   # on ${m}; disk back to normal`,
  slow: (m) => `# ${m}'s disk slows down: each WAL fsync takes 1 s`,
};

function memberArg(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg === 'object' && arg !== null && (arg as { type?: unknown }).type === 'etcdMember' && typeof (arg as { member?: unknown }).member === 'string') return (arg as { member: string }).member;
  return undefined;
}

export function registerEtcdCommands(s: Services, tree: EtcdTreeProvider, showEtcd: (member?: string) => Promise<void>): vscode.Disposable[] {
  const action = (a: EtcdMemberAction) => async (arg?: unknown): Promise<void> => {
    const host = await clusterHost(s);
    let member = memberArg(arg);
    if (!member) {
      const members = host.etcdMembers() ?? [];
      const pick = await vscode.window.showQuickPick(
        members.map((m) => ({ label: m.name, description: `${m.state === 'stopped' ? 'stopped' : m.role} · term ${m.term}${m.partitioned ? ' · partitioned' : ''}${m.slowFsyncMs !== undefined ? ' · slow disk' : ''}` })),
        { title: `KubeSim: ${TITLES[a]}`, placeHolder: 'etcd member' },
      );
      member = pick?.label;
    }
    if (!member) return;
    const name = member;
    const result = await progress(`${TITLES[a].toLowerCase()} ${name}`, () => host.etcdAction(a, name));
    reportOperation(s, host, COMMANDS[a](name), result);
    tree.refresh();
  };
  return [
    vscode.commands.registerCommand('kubesim.etcd.stopMember', action('stop')),
    vscode.commands.registerCommand('kubesim.etcd.startMember', action('start')),
    vscode.commands.registerCommand('kubesim.etcd.partitionMember', action('partition')),
    vscode.commands.registerCommand('kubesim.etcd.healMember', action('heal')),
    vscode.commands.registerCommand('kubesim.etcd.slowMember', action('slow')),
    vscode.commands.registerCommand('kubesim.showEtcd', (arg?: unknown) => showEtcd(memberArg(arg))),
  ];
}
