/**
 * The API objects of metrics-server's release manifest (components.yaml of v0.9.0, every object
 * labelled k8s-app: metrics-server) that shape what the API does: its ServiceAccount, the
 * ClusterRole that aggregates metrics reading into view/edit/admin, its own ClusterRole, the
 * bindings and the APIService v1beta1.metrics.k8s.io. The Deployment and Service are not created: kubesim runs metrics-server as a
 * component of the simulated control plane, not as a pod (docs/deviations.md).
 */
import type { KubeObject } from '../../api/types';
import { METRICS_GROUP } from './resources';

export const METRICS_SERVER_NAMESPACE = 'kube-system';
export const METRICS_SERVER_ACCOUNT = 'metrics-server';

const labels = { 'k8s-app': 'metrics-server' };
const rbac = 'rbac.authorization.k8s.io/v1';
const subject = { kind: 'ServiceAccount', name: METRICS_SERVER_ACCOUNT, namespace: METRICS_SERVER_NAMESPACE };

export interface ManifestObject {
  group: string;
  version: string;
  resource: string;
  object: KubeObject;
}

const o = (group: string, resource: string, object: KubeObject): ManifestObject => ({ group, version: 'v1', resource, object });

/** A binding of metrics-server's service account: to a Role, a RoleBinding in its namespace; to a ClusterRole, a ClusterRoleBinding. */
function binding(name: string, roleKind: 'Role' | 'ClusterRole', role: string): ManifestObject {
  const namespaced = roleKind === 'Role';
  return o('rbac.authorization.k8s.io', namespaced ? 'rolebindings' : 'clusterrolebindings', {
    apiVersion: rbac,
    kind: namespaced ? 'RoleBinding' : 'ClusterRoleBinding',
    metadata: { name, ...(namespaced ? { namespace: METRICS_SERVER_NAMESPACE } : {}), labels },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: role },
    subjects: [subject],
  } as KubeObject);
}

export function metricsServerObjects(): ManifestObject[] {
  return [
    o('', 'serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: METRICS_SERVER_ACCOUNT, namespace: METRICS_SERVER_NAMESPACE, labels } }),
    o('rbac.authorization.k8s.io', 'clusterroles', {
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: {
        name: 'system:aggregated-metrics-reader',
        labels: {
          ...labels,
          'rbac.authorization.k8s.io/aggregate-to-admin': 'true',
          'rbac.authorization.k8s.io/aggregate-to-edit': 'true',
          'rbac.authorization.k8s.io/aggregate-to-view': 'true',
        },
      },
      rules: [{ apiGroups: [METRICS_GROUP], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }],
    } as KubeObject),
    o('rbac.authorization.k8s.io', 'clusterroles', {
      apiVersion: rbac,
      kind: 'ClusterRole',
      metadata: { name: 'system:metrics-server', labels },
      rules: [
        { apiGroups: [''], resources: ['nodes/metrics'], verbs: ['get'] },
        { apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] },
      ],
    } as KubeObject),
    binding('metrics-server-auth-reader', 'Role', 'extension-apiserver-authentication-reader'),
    binding('metrics-server:system:auth-delegator', 'ClusterRole', 'system:auth-delegator'),
    binding('system:metrics-server', 'ClusterRole', 'system:metrics-server'),
    // the APIService that registers metrics.k8s.io/v1beta1 with kube-aggregator
    o('apiregistration.k8s.io', 'apiservices', {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: `v1beta1.${METRICS_GROUP}`, labels },
      spec: {
        group: METRICS_GROUP,
        groupPriorityMinimum: 100,
        insecureSkipTLSVerify: true,
        service: { name: 'metrics-server', namespace: METRICS_SERVER_NAMESPACE },
        version: 'v1beta1',
        versionPriority: 100,
      },
    } as KubeObject),
  ];
}
