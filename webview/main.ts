/**
 * The control-plane panel's webview entry: registers the webview UI toolkit's components
 * (bundled, no remote content) and starts the app.
 */
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeCheckbox, vsCodeDropdown, vsCodeOption, vsCodePanels, vsCodePanelTab, vsCodePanelView, vsCodeTextField } from '@vscode/webview-ui-toolkit';
import type { WebviewMessage } from '../src/protocol/panel';
import { useLayouter } from './model/graph-layout';
import { App, type VsCodeApi } from './ui/app';
import { ElkWorker } from './ui/elk-worker';
import '@vscode/codicons/dist/codicon.css';
import './panel.css';
import './map.css';
import './story.css';
import './graph.css';

declare function acquireVsCodeApi(): VsCodeApi & { postMessage(message: WebviewMessage): void };

provideVSCodeDesignSystem().register(vsCodeCheckbox(), vsCodePanels(), vsCodePanelTab(), vsCodePanelView(), vsCodeDropdown(), vsCodeOption(), vsCodeTextField(), vsCodeButton());

// The object graph's layouts run in a Web Worker, off the main thread.
useLayouter(new ElkWorker());

const root = document.getElementById('app');
if (root) new App(root, acquireVsCodeApi());
