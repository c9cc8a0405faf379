/**
 * The etcd section of the sidebar: the simulated etcd's members as the engine reports them
 * (EtcdCluster.status()), each with its role, term, commit index and state, and the actions a
 * learner breaks it with (Stop, Start, Partition, Heal, Slow disk) inline and in its context
 * menu, beside etcd's maintenance (Defragment a member; Compact and Disarm Alarms in the title
 * bar). A raised alarm shows on the members that raised it, as the view's message in etcd's
 * words (`etcdserver: mvcc: database space exceeded`) and as a badge. It re-reads the members
 * when the engine reports a member event (an election, a fault, an alarm) and when an action
 * was taken, at most every REFRESH_MS.
 */
import * as vscode from 'vscode';
import type { MemberStatus } from '../../engine/store/etcdserver';
import type { ClusterSession } from '../session';
import { alarmMessage, memberItem } from './etcd-items';

const REFRESH_MS = 200;

export interface EtcdMemberElement {
  readonly type: 'etcdMember';
  readonly member: string;
}

export class EtcdTreeProvider implements vscode.TreeDataProvider<EtcdMemberElement>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<undefined>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly elements = new Map<string, EtcdMemberElement>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly subscription: vscode.Disposable;
  private view: vscode.TreeView<EtcdMemberElement> | undefined;
  private alarmShown = '';

  constructor(private readonly session: ClusterSession) {
    this.subscription = session.onDidChangeCluster((host) => {
      this.unsubscribe?.();
      // The worker sends the members' status when an election or a fault changes it.
      this.unsubscribe = host?.onEtcdMembers(() => this.refresh());
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

  /** The tree view this provider fills: its message and badge say when an alarm is raised. */
  attach(view: vscode.TreeView<EtcdMemberElement>): vscode.TreeView<EtcdMemberElement> {
    this.view = view;
    this.showAlarm();
    return view;
  }

  private showAlarm(): void {
    const alarm = alarmMessage(this.members());
    const key = alarm?.message ?? '';
    if (key === this.alarmShown) return;
    this.alarmShown = key;
    if (this.view) {
      this.view.message = alarm?.message;
      this.view.badge = alarm?.badge;
    }
    void vscode.commands.executeCommand('setContext', 'kubesim.etcd.alarm', alarm !== undefined);
  }

  /** Re-reads the members soon (several events in a burst make one refresh). */
  refresh(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.showAlarm();
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
