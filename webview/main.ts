/**
 * The control-plane panel's webview entry: registers the webview UI toolkit's components
 * (bundled, no remote content) and starts the app.
 */
import { provideVSCodeDesignSystem, vsCodeButton, vsCodeDropdown, vsCodeOption, vsCodePanels, vsCodePanelTab, vsCodePanelView, vsCodeTextField } from '@vscode/webview-ui-toolkit';
import type { WebviewMessage } from '../src/protocol/panel';
import { App, type VsCodeApi } from './ui/app';
import './panel.css';

declare function acquireVsCodeApi(): VsCodeApi & { postMessage(message: WebviewMessage): void };

provideVSCodeDesignSystem().register(vsCodePanels(), vsCodePanelTab(), vsCodePanelView(), vsCodeDropdown(), vsCodeOption(), vsCodeTextField(), vsCodeButton());

const root = document.getElementById('app');
if (root) new App(root, acquireVsCodeApi());
