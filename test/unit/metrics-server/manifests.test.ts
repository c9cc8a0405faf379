/** metrics-server's release-manifest objects: the bindings of its service account, as components.yaml writes them. */
import { strict as assert } from 'node:assert';
import { metricsServerObjects } from '../../../src/engine/components/metrics-server/manifests';

describe('metrics-server manifests', () => {
  it('binds its service account to the auth reader Role in kube-system and to two ClusterRoles', () => {
    const labels = { 'k8s-app': 'metrics-server' };
    const subjects = [{ kind: 'ServiceAccount', name: 'metrics-server', namespace: 'kube-system' }];
    const bindings = metricsServerObjects().filter((m) => m.resource.endsWith('bindings'));
    assert.equal(
      JSON.stringify(bindings),
      JSON.stringify([
        {
          group: 'rbac.authorization.k8s.io',
          version: 'v1',
          resource: 'rolebindings',
          object: {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'RoleBinding',
            metadata: { name: 'metrics-server-auth-reader', namespace: 'kube-system', labels },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'extension-apiserver-authentication-reader' },
            subjects,
          },
        },
        {
          group: 'rbac.authorization.k8s.io',
          version: 'v1',
          resource: 'clusterrolebindings',
          object: {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'ClusterRoleBinding',
            metadata: { name: 'metrics-server:system:auth-delegator', labels },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:auth-delegator' },
            subjects,
          },
        },
        {
          group: 'rbac.authorization.k8s.io',
          version: 'v1',
          resource: 'clusterrolebindings',
          object: {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'ClusterRoleBinding',
            metadata: { name: 'system:metrics-server', labels },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:metrics-server' },
            subjects,
          },
        },
      ]),
    );
  });
});
