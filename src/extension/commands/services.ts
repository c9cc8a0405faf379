/**
 * What the commands work with: the session (the cluster, started on first use with a progress
 * notification), the output channel, the tree, live documents and the settings.
 */
import * as vscode from 'vscode';
import type { RemoteClusterHost as ClusterHost } from '../engine/remote-host';
import type { OperationReply as OperationResult } from '../../protocol/engine';
import { commandHeader, formatResults } from '../messages';
import type { LiveDocuments } from '../live-document';
import type { Output } from '../output';
import type { ClusterSession } from '../session';
import type { KubeSimSettings } from '../settings';
import type { ClusterTreeProvider } from '../tree/provider';
import type { TreeElement } from '../tree/elements';

export interface Services {
  readonly context: vscode.ExtensionContext;
  readonly session: ClusterSession;
  readonly output: Output;
  readonly tree: ClusterTreeProvider;
  readonly live: LiveDocuments;
  settings(): KubeSimSettings;
}

/** The running cluster; starting it shows a progress notification (it takes a moment). */
export async function clusterHost(s: Services): Promise<ClusterHost> {
  if (s.session.current) return s.session.current;
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'KubeSim: starting the simulated cluster…' }, () => s.session.get());
}

/** Long work behind a progress notification. */
export function progress<T>(title: string, work: () => Promise<T>): Thenable<T> {
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `KubeSim: ${title}` }, work);
}

/** An operation's kubectl lines (or error) under its command line, and the notification. */
export function reportOperation(s: Services, host: ClusterHost, command: string, result: OperationResult, options: { quiet?: boolean } = {}): void {
  const lines = result.ok ? result.lines.map((message) => ({ ok: true, message })) : [{ ok: false, message: result.message }];
  s.output.report(commandHeader(command, host.user), formatResults(lines, 'error: nothing to do'), options);
}

/** A tree element passed by a context menu, if the command was run from one. */
export function elementArg(arg: unknown): Extract<TreeElement, { type: 'object' }> | undefined {
  if (typeof arg === 'object' && arg !== null && (arg as TreeElement).type === 'object' && typeof (arg as { key?: unknown }).key === 'string') {
    return arg as Extract<TreeElement, { type: 'object' }>;
  }
  return undefined;
}

/**
 * Writes a kubesim setting where it takes effect: in the workspace when the workspace sets it,
 * else in the user settings (a command should not add files to the user's project).
 */
export function updateSetting(key: string, value: unknown): Thenable<void> {
  const config = vscode.workspace.getConfiguration('kubesim');
  const inWorkspace = config.inspect(key)?.workspaceValue !== undefined;
  return config.update(key, value, inWorkspace ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
}
