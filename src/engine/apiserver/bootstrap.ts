/**
 * What kube-apiserver creates by itself when it starts: the system namespaces, the kubernetes
 * Service in default (the first address of the service range, port 443 to 6443), the RBAC
 * bootstrap policy and the two system PriorityClasses. Each is an ordinary request by system:apiserver, so it shows in the
 * trace and the store's revisions like anything else.
 */
import { parseApiVersion, type JsonObject, type KubeObject } from '../api/types';
import { bootstrapPolicyObjects } from './authz/rbac';
import { APISERVER_USER } from './authn/user';
import type { ApiRequest } from './request';
import type { ApiServer } from './server';
import { table } from '../api/own';

export const SYSTEM_NAMESPACES: readonly string[] = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

const RBAC_RESOURCES = table<string>({
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
  Role: 'roles',
  RoleBinding: 'rolebindings',
});

const SYSTEM_PRIORITY_CLASSES = [
  {
    name: 'system-node-critical',
    value: 2000001000,
    description: 'Used for system critical pods that must not be moved from their current node.',
  },
  {
    name: 'system-cluster-critical',
    value: 2000000000,
    description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
  },
];

async function ensure(server: ApiServer, request: Omit<ApiRequest, 'verb' | 'user'>, object: KubeObject): Promise<void> {
  const name = object.metadata.name ?? '';
  const got = await server.handle({ ...request, verb: 'get', name, user: APISERVER_USER });
  if (got.code === 200) return;
  const res = await server.handle({ ...request, verb: 'create', user: APISERVER_USER, body: { object } });
  if (res.code >= 300) throw new Error(`bootstrap: creating ${request.resource} ${name} failed: ${String(res.body.message ?? res.code)}`);
}

export async function bootstrapSystemObjects(server: ApiServer, kubernetesServiceIP = '10.96.0.1'): Promise<void> {
  for (const name of SYSTEM_NAMESPACES) {
    await ensure(server, { group: '', version: 'v1', resource: 'namespaces' }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  }
  const service: JsonObject = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
    spec: {
      type: 'ClusterIP',
      clusterIP: kubernetesServiceIP,
      ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }],
      sessionAffinity: 'None',
    },
  };
  await ensure(server, { group: '', version: 'v1', resource: 'services', namespace: 'default' }, service as KubeObject);
  for (const obj of bootstrapPolicyObjects()) {
    const { group, version } = parseApiVersion(obj.apiVersion);
    const resource = RBAC_RESOURCES[obj.kind];
    if (!resource) continue;
    await ensure(server, { group, version, resource, namespace: obj.metadata.namespace }, obj);
  }
  for (const pc of SYSTEM_PRIORITY_CLASSES) {
    await ensure(
      server,
      { group: 'scheduling.k8s.io', version: 'v1', resource: 'priorityclasses' },
      { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: pc.name }, value: pc.value, description: pc.description },
    );
  }
}
