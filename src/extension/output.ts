/**
 * The "KubeSim" output channel and the notifications: kubectl's lines go to the channel under
 * the command line that produced them; the summary pops up with the report's severity and a
 * button to the channel. The channel's text and the notifications are also kept (bounded) for
 * the extension's tests.
 */
import * as vscode from 'vscode';
import type { Report } from './messages';

const KEPT_LINES = 2000;
const KEPT_NOTIFICATIONS = 50;

/** How long a quiet report stays in the status bar. */
const STATUS_MESSAGE_MS = 6000;

export class Output implements vscode.Disposable {
  private channel: vscode.OutputChannel | undefined;
  private readonly kept: string[] = [];
  /** The notifications shown, newest last (bounded), for the extension's tests. */
  readonly notifications: { severity: Report['severity']; message: string }[] = [];

  /** Created on first use: activation stays cheap. */
  private get out(): vscode.OutputChannel {
    this.channel ??= vscode.window.createOutputChannel('KubeSim');
    return this.channel;
  }

  get text(): string {
    return this.kept.join('\n');
  }

  append(lines: readonly string[]): void {
    for (const line of lines) {
      this.out.appendLine(line);
      this.kept.push(line);
    }
    if (this.kept.length > KEPT_LINES) this.kept.splice(0, this.kept.length - KEPT_LINES);
  }

  /** The command line, kubectl's lines, and the summary as a notification. */
  /**
   * The lines under their command in the output, and a notification; `quiet`: a success is said
   * in the status bar instead (what it changed is on screen: the etcd view, the sidebar), so
   * that a learner's clicks do not pile notifications over the picture. Errors always notify.
   */
  report(header: string, report: Report, options: { quiet?: boolean } = {}): void {
    this.append([header, ...report.lines, '']);
    if (options.quiet && report.severity === 'info') {
      this.notifications.push({ severity: report.severity, message: report.summary });
      if (this.notifications.length > KEPT_NOTIFICATIONS) this.notifications.shift();
      vscode.window.setStatusBarMessage(`$(check) ${report.summary}`, STATUS_MESSAGE_MS);
      return;
    }
    this.notify(report.severity, report.summary);
  }

  notify(severity: Report['severity'], message: string): void {
    this.notifications.push({ severity, message });
    if (this.notifications.length > KEPT_NOTIFICATIONS) this.notifications.shift();
    const show = 'Show Output';
    const shown = severity === 'error' ? vscode.window.showErrorMessage(message, show) : severity === 'warning' ? vscode.window.showWarningMessage(message, show) : vscode.window.showInformationMessage(message, show);
    void shown.then((choice) => {
      if (choice === show) this.out.show(true);
    });
  }

  show(): void {
    this.out.show(true);
  }

  dispose(): void {
    this.channel?.dispose();
  }
}
