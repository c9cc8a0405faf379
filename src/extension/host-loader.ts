/**
 * The bundles not loaded during activation: the control-plane panel (dist/panel.js,
 * src/extension/panel/index.ts) on first use, the language client (dist/language-client.js)
 * right after activation. Activation stays small and fast. The engine is never loaded here: it
 * runs in its worker thread (dist/engine-worker.mjs, started by src/extension/engine/client.ts).
 */
import type * as ClientModule from './language-client';
import type * as PanelModule from './panel/index';

declare const __non_webpack_require__: NodeJS.Require | undefined;

/** Node's require, unseen by the bundler (the path is only known at run time). */
const load = (file: string): unknown => (typeof __non_webpack_require__ === 'function' ? __non_webpack_require__ : require)(file);

export function loadPanel(extensionPath: string): typeof PanelModule {
  return load(`${extensionPath}/dist/panel.js`) as typeof PanelModule;
}

export function loadLanguageClient(extensionPath: string): typeof ClientModule {
  return load(`${extensionPath}/dist/language-client.js`) as typeof ClientModule;
}
