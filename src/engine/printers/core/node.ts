/** kubectl get nodes: STATUS from the Ready condition (and SchedulingDisabled), ROLES from labels. */
import type { JsonObject, KubeObject } from '../../api/types';
import { AGE, NAME } from '../common';
import { NODE_ADDRESSES, NODE_CONTAINER_RUNTIME, NODE_KERNEL_VERSION, NODE_KUBELET_VERSION, NODE_OS_IMAGE } from '../descriptions';
import { noneIfEmpty, obj, objs, str, strMap, unknownIfEmpty } from '../format';
import { col, tablePrinter, wide, type Row } from '../table';

const ROLE_LABEL_PREFIX = 'node-role.kubernetes.io/';
const ROLE_LABEL = 'kubernetes.io/role';

/** findNodeRoles: node-role.kubernetes.io/<role> keys and kubernetes.io/role values, sorted. */
export function nodeRoles(node: KubeObject): string[] {
  const roles = new Set<string>();
  for (const [k, v] of Object.entries(strMap(node.metadata.labels))) {
    if (k.startsWith(ROLE_LABEL_PREFIX)) {
      const role = k.slice(ROLE_LABEL_PREFIX.length);
      if (role) roles.add(role);
    } else if (k === ROLE_LABEL && v !== '') roles.add(v);
  }
  return [...roles].sort();
}

export function nodeStatus(node: KubeObject): string {
  const status: string[] = [];
  const ready = objs(obj(node.status).conditions).filter((c) => c.type === 'Ready').pop();
  if (ready) status.push(ready.status === 'True' ? 'Ready' : 'NotReady');
  if (status.length === 0) status.push('Unknown');
  if (obj(node.spec).unschedulable === true) status.push('SchedulingDisabled');
  return status.join(',');
}

function address(node: KubeObject, type: string): string {
  return noneIfEmpty(objs(obj(node.status).addresses).find((a) => a.type === type)?.address);
}

const nodeInfo = (r: Row): JsonObject => obj(r.status.nodeInfo);

export const nodePrinter = tablePrinter([
  NAME,
  col('Status', 'string', 'The status of the node', (r) => nodeStatus(r.object)),
  col('Roles', 'string', 'The roles of the node', (r) => noneIfEmpty(nodeRoles(r.object).join(','))),
  AGE,
  col('Version', 'string', NODE_KUBELET_VERSION, (r) => str(nodeInfo(r).kubeletVersion)),
  wide('Internal-IP', 'string', NODE_ADDRESSES, (r) => address(r.object, 'InternalIP')),
  wide('External-IP', 'string', NODE_ADDRESSES, (r) => address(r.object, 'ExternalIP')),
  wide('OS-Image', 'string', NODE_OS_IMAGE, (r) => unknownIfEmpty(nodeInfo(r).osImage)),
  wide('Kernel-Version', 'string', NODE_KERNEL_VERSION, (r) => unknownIfEmpty(nodeInfo(r).kernelVersion)),
  wide('Container-Runtime', 'string', NODE_CONTAINER_RUNTIME, (r) => unknownIfEmpty(nodeInfo(r).containerRuntimeVersion)),
]);
