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
  return adopt(context, host, webviewPanel);
}

/**
 * Takes back the panel VS Code restores after Reload Window (its WebviewPanelSerializer): the
 * webview loads again with the state it saved (tab, filters, selection, replay position) and
 * syncs as a fresh load does.
 */
export function restorePanel(context: Pick<vscode.ExtensionContext, 'extensionUri' | 'subscriptions'>, host: PanelHost, webviewPanel: vscode.WebviewPanel): ControlPlanePanel {
  if (open) {
    // One panel at a time: the restored one gives way to the one already open.
    webviewPanel.dispose();
    return open;
  }
  webviewPanel.webview.options = panelOptions(context.extensionUri);
  return adopt(context, host, webviewPanel);
}

/** The one open panel drives this webview panel until it is closed. */
function adopt(context: Pick<vscode.ExtensionContext, 'extensionUri' | 'subscriptions'>, host: PanelHost, webviewPanel: vscode.WebviewPanel): ControlPlanePanel {
  const panel = new ControlPlanePanel(webviewPanel, context.extensionUri, host);
  open = panel;
  panel.onDidDispose(() => {
    if (open === panel) open = undefined;
  });
  context.subscriptions.push(webviewPanel);
  return panel;
}
