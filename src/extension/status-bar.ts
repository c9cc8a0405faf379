/**
 * The status bar item: etcd revision, nodes, pods running and pending, and the clock; a click
 * opens the control plane. It follows the cluster's changes (debounced) and, while the clock
 * runs, ticks once a second for what no watch reports (revisions from leases, virtual time).
 * Its tooltip also tells where the API endpoint serves, while it does. While the clock is
 * paused a second item beside it steps to the next change.
 */
import * as vscode from 'vscode';
import type { ClusterSession } from './session';
import { statusBarText, statusBarTooltip } from './status-text';

const UPDATE_MS = 250;
const TICK_MS = 1000;

export class StatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  readonly stepItem: vscode.StatusBarItem;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly ticker: ReturnType<typeof setInterval>;
  private unsubscribe: (() => void)[] = [];
  private readonly subscription: vscode.Disposable;
  private extra: readonly string[] = [];

  constructor(private readonly session: ClusterSession) {
    this.item = vscode.window.createStatusBarItem('kubesim.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'KubeSim';
    this.item.command = 'kubesim.showControlPlane';
    this.stepItem = vscode.window.createStatusBarItem('kubesim.step', vscode.StatusBarAlignment.Left, 9);
    this.stepItem.name = 'KubeSim: Step';
    this.stepItem.text = '$(debug-step-over)';
    this.stepItem.tooltip = 'KubeSim: Step to Next Change (the next etcd write, reconcile, scheduling decision or kubelet step; heartbeats are run through)';
    this.stepItem.accessibilityInformation = { label: 'KubeSim: Step to next change', role: 'button' };
    this.stepItem.command = 'kubesim.step';
    this.render();
    this.item.show();
    this.subscription = session.onDidChangeCluster((host) => {
      for (const u of this.unsubscribe) u();
      this.unsubscribe = host ? [host.view.onChange(() => this.update()), host.pacer.onChange(() => this.update())] : [];
      this.update();
    });
    this.ticker = setInterval(() => {
      if (this.session.current?.pacer.current.state === 'running') this.update();
    }, TICK_MS);
  }

  update(): void {
    this.timer ??= setTimeout(() => void this.render(), UPDATE_MS);
  }

  /** Lines the tooltip adds (the API endpoint's address while it serves); renders now. */
  setTooltipLines(lines: readonly string[]): Promise<void> {
    this.extra = lines;
    return this.render();
  }

  /** Renders now; resolves once the text is set. */
  async render(): Promise<void> {
    this.timer = undefined;
    const host = this.session.current;
    const summary = host ? await host.summary().catch(() => undefined) : undefined;
    this.item.text = statusBarText(summary);
    this.item.tooltip = statusBarTooltip(summary, this.extra);
    if (summary?.clock === 'paused') this.stepItem.show();
    else this.stepItem.hide();
    void vscode.commands.executeCommand('setContext', 'kubesim.clock', summary?.clock ?? 'stopped');
  }

  dispose(): void {
    for (const u of this.unsubscribe) u();
    this.subscription.dispose();
    if (this.timer) clearTimeout(this.timer);
    clearInterval(this.ticker);
    this.item.dispose();
    this.stepItem.dispose();
  }
}
