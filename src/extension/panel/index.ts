/**
 * The control-plane panel: `showPanel` opens it (or brings the open one forward). The
 * "Show Control Plane" command calls it with the extension's cluster host.
 */
import * as vscode from 'vscode';
import { ControlPlanePanel, PANEL_VIEW_TYPE, panelOptions } from './panel';
import type { PanelHost } from './host';

export type { PanelCluster, PanelHost } from './host';
export { ControlPlanePanel, PANEL_VIEW_TYPE } from './panel';

let open: ControlPlanePanel | undefined;

export function showPanel(context: Pick<vscode.ExtensionContext, 'extensionUri' | 'subscriptions'>, host: PanelHost): ControlPlanePanel {
  if (open) {
    open.reveal();
    return open;
  }
  const webviewPanel = vscode.window.createWebviewPanel(PANEL_VIEW_TYPE, 'KubeSim Control Plane', vscode.ViewColumn.Active, panelOptions(context.extensionUri));
  const panel = new ControlPlanePanel(webviewPanel, context.extensionUri, host);
  open = panel;
  panel.onDidDispose(() => {
    if (open === panel) open = undefined;
  });
  context.subscriptions.push(webviewPanel);
  return panel;
}
