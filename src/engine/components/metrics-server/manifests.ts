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
    o('rbac.authorization.k8s.io', 'rolebindings', {
      apiVersion: rbac,
      kind: 'RoleBinding',
      metadata: { name: 'metrics-server-auth-reader', namespace: METRICS_SERVER_NAMESPACE, labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'extension-apiserver-authentication-reader' },
      subjects: [subject],
    } as KubeObject),
    o('rbac.authorization.k8s.io', 'clusterrolebindings', {
      apiVersion: rbac,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'metrics-server:system:auth-delegator', labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:auth-delegator' },
      subjects: [subject],
    } as KubeObject),
    o('rbac.authorization.k8s.io', 'clusterrolebindings', {
      apiVersion: rbac,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:metrics-server', labels },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:metrics-server' },
      subjects: [subject],
    } as KubeObject),
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
