/**
 * componentstatuses (pkg/registry/core/componentstatus): computed per request from the health of
 * the control plane's components. kubesim's controller manager, scheduler and etcd run in the
 * same process as the API server, so they answer their health checks with "ok".
 */
import { notFoundError } from '../../api/status';
import type { JsonObject } from '../../api/types';

/** The components kube-apiserver probes, in the order it lists them. */
const COMPONENTS = ['controller-manager', 'scheduler', 'etcd-0'];

const componentStatus = (name: string): JsonObject => ({
  kind: 'ComponentStatus',
  apiVersion: 'v1',
  metadata: { name },
  conditions: [{ type: 'Healthy', status: 'True', message: 'ok' }],
});

export function getComponentStatus(name: string): JsonObject {
  if (!COMPONENTS.includes(name)) throw notFoundError({ group: '', name: 'componentstatuses' }, name);
  return componentStatus(name);
}

export function listComponentStatuses(): JsonObject {
  return { kind: 'ComponentStatusList', apiVersion: 'v1', metadata: {}, items: COMPONENTS.map(componentStatus) };
}
