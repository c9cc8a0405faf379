// The control-plane panel's webview (dist/webview.js) on a page of its own, outside VS Code, for
// the benchmark and the harness checks: a stand-in acquireVsCodeApi that records what the webview
// posts, and a theme's body class with a few of VS Code's theme variables (dark or light).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const THEMES = {
  dark: { class: 'vscode-dark', vars: { 'editor-background': '#1e1e1e', foreground: '#cccccc', descriptionForeground: '#9d9d9d', 'editorWidget-background': '#252526', 'widget-border': '#454545', 'sideBar-background': '#181818', focusBorder: '#007fd4', 'input-background': '#3c3c3c', 'charts-blue': '#3794ff', 'charts-red': '#f14c4c', 'charts-orange': '#d18616', 'charts-yellow': '#cca700', 'charts-green': '#89d185', 'charts-purple': '#b180d7', 'panel-border': '#2b2b2b', errorForeground: '#f85149' } },
  light: { class: 'vscode-light', vars: { 'editor-background': '#ffffff', foreground: '#3b3b3b', descriptionForeground: '#717171', 'editorWidget-background': '#f8f8f8', 'widget-border': '#d4d4d4', 'sideBar-background': '#f3f3f3', focusBorder: '#005fb8', 'input-background': '#e4e4e4', 'charts-blue': '#1a85ff', 'charts-red': '#e51400', 'charts-orange': '#d18616', 'charts-yellow': '#bf8803', 'charts-green': '#388a34', 'charts-purple': '#652d90', 'panel-border': '#e5e5e5', errorForeground: '#e51400' } },
};

/** Writes the page into a temporary folder; returns its file URL. */
export function panelPage(theme = 'dark', dist = path.resolve('dist')) {
  const t = THEMES[theme];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubesim-panel-page-'));
  const style = Object.entries(t.vars).map(([k, v]) => `--vscode-${k}: ${v};`).join(' ');
  fs.writeFileSync(
    path.join(dir, 'panel.html'),
    `<!DOCTYPE html><html><head><meta charset="UTF-8"><link rel="stylesheet" href="file://${dist}/webview.css"></head>
<body class="${t.class}" style="${style} --vscode-font-family: system-ui, sans-serif; --vscode-font-size: 13px;"><div id="app"></div>
<script>
  const saved = sessionStorage.getItem('state');
  window.posted = [];
  window.acquireVsCodeApi = () => ({
    postMessage: (m) => window.posted.push(m),
    getState: () => (saved ? JSON.parse(saved) : undefined),
    setState: (s) => sessionStorage.setItem('state', JSON.stringify(s)),
  });
</script>
<script src="file://${dist}/webview.js"></script></body></html>`,
  );
  return `file://${dir}/panel.html`;
}
