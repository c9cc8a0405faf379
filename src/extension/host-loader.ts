/**
 * The bundles loaded on first use, not at activation: the engine with the cluster host
 * (dist/cluster-host.js, src/extension/cluster-host.ts) and the control-plane panel
 * (dist/panel.js, src/extension/panel/index.ts). Activation stays small and fast.
 */
import type * as HostModule from './cluster-host';
import type * as PanelModule from './panel/index';

declare const __non_webpack_require__: NodeJS.Require | undefined;

/** Node's require, unseen by the bundler (the path is only known at run time). */
const load = (file: string): unknown => (typeof __non_webpack_require__ === 'function' ? __non_webpack_require__ : require)(file);

export function loadClusterHost(extensionPath: string): typeof HostModule {
  return load(`${extensionPath}/dist/cluster-host.js`) as typeof HostModule;
}

export function loadPanel(extensionPath: string): typeof PanelModule {
  return load(`${extensionPath}/dist/panel.js`) as typeof PanelModule;
}
