/** kubectl get nodes: STATUS from the Ready condition (and SchedulingDisabled), ROLES from labels. */
import type { KubeObject } from '../../api/types';
import { ageColumn, nameColumn } from '../common';
import { NODE_ADDRESSES, NODE_CONTAINER_RUNTIME, NODE_KERNEL_VERSION, NODE_KUBELET_VERSION, NODE_OS_IMAGE } from '../descriptions';
import { ageOf, obj, objs, str, strMap } from '../format';
import { column, type Cell, type PrintContext, type Printer } from '../table';

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
  return str(objs(obj(node.status).addresses).find((a) => a.type === type)?.address) || '<none>';
}

export const nodePrinter: Printer = {
  columns: [
    nameColumn,
    column('Status', 'string', 'The status of the node'),
    column('Roles', 'string', 'The roles of the node'),
    ageColumn,
    column('Version', 'string', NODE_KUBELET_VERSION),
    column('Internal-IP', 'string', NODE_ADDRESSES, { priority: 1 }),
    column('External-IP', 'string', NODE_ADDRESSES, { priority: 1 }),
    column('OS-Image', 'string', NODE_OS_IMAGE, { priority: 1 }),
    column('Kernel-Version', 'string', NODE_KERNEL_VERSION, { priority: 1 }),
    column('Container-Runtime', 'string', NODE_CONTAINER_RUNTIME, { priority: 1 }),
  ],
  cells(node: KubeObject, ctx: PrintContext): Cell[] {
    const info = obj(obj(node.status).nodeInfo);
    const roles = nodeRoles(node).join(',');
    return [
      node.metadata.name ?? '',
      nodeStatus(node),
      roles || '<none>',
      ageOf(node, ctx.now),
      str(info.kubeletVersion),
      address(node, 'InternalIP'),
      address(node, 'ExternalIP'),
      str(info.osImage) || '<unknown>',
      str(info.kernelVersion) || '<unknown>',
      str(info.containerRuntimeVersion) || '<unknown>',
    ];
  },
};
