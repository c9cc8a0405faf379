import { strict as assert } from 'node:assert';
import '../../../../src/engine/apiserver/validation';
import { validatorFor } from '../../../../src/engine/apiserver/validation/registry';
import { defaulterFor } from '../../../../src/engine/apiserver/defaults';
import type { KubeObject } from '../../../../src/engine/api/types';

/** Full messages, bad values included, as kube-apiserver 1.35 renders them (JSON since 1.34). */
function messages(obj: KubeObject, old?: KubeObject): string[] {
  const [group] = obj.apiVersion.includes('/') ? obj.apiVersion.split('/') : [''];
  defaulterFor(group!, obj.kind)?.(obj);
  if (old) defaulterFor(group!, obj.kind)?.(old);
  const v = validatorFor(group!, obj.kind)!;
  return (old ? v.update(obj, old, {}) : v.create(obj, {})).map((e) => e.message);
}

const deployment = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default', resourceVersion: '1' },
  spec: {
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    ...spec,
  },
});

describe('apps messages', () => {
  it('prints the template labels of a selector mismatch', () => {
    assert.deepEqual(messages(deployment({ selector: { matchLabels: { app: 'api' } } })), [
      'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    ]);
  });

  it('prints an unsupported strategy as the internal struct', () => {
    assert.deepEqual(messages(deployment({ strategy: { type: 'BlueGreen' } })), [
      'spec.strategy: Unsupported value: {"Type":"BlueGreen","RollingUpdate":null}: supported values: "Recreate", "RollingUpdate"',
    ]);
  });

  it('prints percent values quoted', () => {
    assert.deepEqual(messages(deployment({ strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '150%' } } })), [
      'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%',
    ]);
  });

  it('prints an immutable selector with matchLabels before matchExpressions', () => {
    const sel = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] };
    const now = deployment({ selector: sel, template: { metadata: { labels: { app: 'web', tier: 'x' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } });
    assert.deepEqual(messages(now, deployment({})), [
      'spec.selector: Invalid value: {"matchLabels":{"app":"web"},"matchExpressions":[{"key":"tier","operator":"Exists"}]}: field is immutable',
    ]);
  });

  it('prints a changed roleRef as the internal struct', () => {
    const binding = (name: string): KubeObject => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'b', namespace: 'default', resourceVersion: '1' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    });
    assert.deepEqual(messages(binding('edit'), binding('view')), [
      'roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"edit"}: cannot change roleRef',
    ]);
  });
});
