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
  report(header: string, report: Report): void {
    this.append([header, ...report.lines, '']);
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
