/**
 * The etcd section of the sidebar: the simulated etcd's members as the engine reports them
 * (EtcdCluster.status()), each with its role, term, commit index and state, and the actions a
 * learner breaks it with (Stop, Start, Partition, Heal, Slow disk) inline and in its context
 * menu. It re-reads the members when the trace records a member event (an election, a fault)
 * and when an action was taken, at most every REFRESH_MS.
 */
import * as vscode from 'vscode';
import type { MemberStatus } from '../../engine/store/etcdserver';
import type { ClusterSession } from '../session';

const REFRESH_MS = 200;

export interface EtcdMemberElement {
  readonly type: 'etcdMember';
  readonly member: string;
}

/** The item of a member, as plain data (the tests read it). */
export function memberItem(m: MemberStatus): { label: string; description: string; tooltip: string; contextValue: string; icon: string; color?: string } {
  const stopped = m.state === 'stopped';
  const role = stopped ? 'stopped' : m.role;
  const flags = [m.partitioned ? 'partitioned' : '', m.slowFsyncMs !== undefined ? 'slow disk' : ''].filter(Boolean);
  const description = [role, `term ${m.term}`, `commit ${m.commitIndex}`, ...flags].join(' · ');
  const tooltip = [
    `${m.name} (member ID ${m.id})`,
    `role: ${role}${m.lead ? `, knows ${m.lead} as leader` : ', knows no leader'}`,
    `term ${m.term}, log ${m.firstIndex}–${m.lastIndex}, commit ${m.commitIndex}, applied ${m.appliedIndex}`,
    `revision ${m.revision}, db ${m.dbSizeBytes} bytes`,
    `state: ${stopped ? 'stopped' : 'running'}${m.partitioned ? ', partitioned from the other members' : ''}${m.slowFsyncMs !== undefined ? `, slow disk (${m.slowFsyncMs} ms per WAL fsync)` : ''}`,
  ].join('\n');
  const contextValue = ['etcdMember', stopped ? 'stopped' : 'running', ...(m.partitioned ? ['partitioned'] : []), ...(m.slowFsyncMs !== undefined ? ['slow'] : [])].join(':');
  const icon = stopped ? 'debug-stop' : m.partitioned ? 'debug-disconnect' : m.role === 'leader' ? 'star-full' : m.role === 'follower' ? 'circle-outline' : 'sync';
  const color = stopped ? 'disabledForeground' : m.partitioned ? 'charts.red' : m.role === 'leader' ? 'charts.blue' : m.role === 'follower' ? undefined : 'charts.orange';
  return { label: m.name, description, tooltip, contextValue, icon, ...(color ? { color } : {}) };
}

export class EtcdTreeProvider implements vscode.TreeDataProvider<EtcdMemberElement>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly elements = new Map<string, EtcdMemberElement>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly session: ClusterSession) {
    this.subscription = session.onDidChangeCluster((host) => {
      this.unsubscribe?.();
      this.unsubscribe = host?.trace.subscribe((r) => {
        if (r.type === 'etcd.member') this.refresh();
      });
      this.elements.clear();
      this.refresh();
    });
  }

  private members(): MemberStatus[] {
    return this.session.current?.etcdMembers() ?? [];
  }

  getChildren(element?: EtcdMemberElement): EtcdMemberElement[] {
    if (element) return [];
    return this.members().map((m) => {
      let el = this.elements.get(m.name);
      if (!el) {
        el = { type: 'etcdMember', member: m.name };
        this.elements.set(m.name, el);
      }
      return el;
    });
  }

  getTreeItem(element: EtcdMemberElement): vscode.TreeItem {
    const m = this.members().find((x) => x.name === element.member);
    if (!m) return new vscode.TreeItem(element.member);
    const spec = memberItem(m);
    const item = new vscode.TreeItem(spec.label, vscode.TreeItemCollapsibleState.None);
    item.id = `etcd/${m.name}`;
    item.description = spec.description;
    item.tooltip = spec.tooltip;
    item.contextValue = spec.contextValue;
    item.iconPath = new vscode.ThemeIcon(spec.icon, spec.color ? new vscode.ThemeColor(spec.color) : undefined);
    item.accessibilityInformation = { label: `etcd member ${spec.label}: ${spec.description}` };
    item.command = { command: 'kubesim.showEtcd', title: 'Show etcd', arguments: [element] };
    return item;
  }

  /** Re-reads the members soon (several events in a burst make one refresh). */
  refresh(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.emitter.fire(undefined);
    }, REFRESH_MS);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.unsubscribe?.();
    this.subscription.dispose();
    this.emitter.dispose();
  }
}
