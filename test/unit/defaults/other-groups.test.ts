import { strict as assert } from 'node:assert';
import { defaulted } from './defaulted';

// Tables after the defaults_test.go of autoscaling/v2, networking/v1, discovery/v1, rbac/v1,
// scheduling/v1, storage/v1, admissionregistration/v1 and apiextensions/v1 (release-1.35).
const make = (apiVersion: string, kind: string, rest: object) => defaulted({ apiVersion, kind, metadata: { name: 'x', namespace: 'default' }, ...rest });
const hpaSpec = (apiVersion: string, spec: object) => make(apiVersion, 'HorizontalPodAutoscaler', { spec }).spec as Record<string, unknown>;
const target = { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, maxReplicas: 5 };

describe('defaults: autoscaling HorizontalPodAutoscaler', () => {
  it('TestSetDefaultHPA (v2): minReplicas 1 and 80% CPU, no behavior', () => {
    assert.deepEqual(hpaSpec('autoscaling/v2', target), {
      ...target,
      minReplicas: 1,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
    });
  });

  it('given metrics stay', () => {
    const metrics = [{ type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '1Gi' } } }];
    assert.deepEqual(hpaSpec('autoscaling/v2', { ...target, minReplicas: 2, metrics }).metrics, metrics);
  });

  it('TestGenerateScaleUpRules / TestGenerateScaleDownRules: behavior fills every unset rule field', () => {
    assert.deepEqual(hpaSpec('autoscaling/v2', { ...target, behavior: {} }).behavior, {
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Max',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
    });
    const behavior = hpaSpec('autoscaling/v2', {
      ...target,
      behavior: {
        scaleUp: { selectPolicy: 'Min', tolerance: '0.05' },
        scaleDown: { stabilizationWindowSeconds: 60, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
      },
    }).behavior;
    assert.deepEqual(behavior, {
      scaleUp: {
        stabilizationWindowSeconds: 0,
        selectPolicy: 'Min',
        tolerance: '0.05',
        policies: [
          { type: 'Pods', value: 4, periodSeconds: 15 },
          { type: 'Percent', value: 100, periodSeconds: 15 },
        ],
      },
      scaleDown: { selectPolicy: 'Max', stabilizationWindowSeconds: 60, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] },
    });
  });

  it('autoscaling/v1 only defaults minReplicas', () => {
    assert.deepEqual(hpaSpec('autoscaling/v1', target), { ...target, minReplicas: 1 });
  });
});

describe('defaults: networking.k8s.io/v1', () => {
  const npSpec = (spec: object) => make('networking.k8s.io/v1', 'NetworkPolicy', { spec }).spec as Record<string, unknown>;

  it('TestSetDefaultNetworkPolicy: policyTypes from the rules present', () => {
    assert.deepEqual(npSpec({ podSelector: {} }).policyTypes, ['Ingress']);
    assert.deepEqual(npSpec({ podSelector: {}, ingress: [{}] }).policyTypes, ['Ingress']);
    assert.deepEqual(npSpec({ podSelector: {}, egress: [{}] }).policyTypes, ['Ingress', 'Egress']);
    assert.deepEqual(npSpec({ podSelector: {}, egress: [{}], policyTypes: ['Egress'] }).policyTypes, ['Egress']);
  });

  it('TestSetDefaultNetworkPolicyPort: ports default to TCP', () => {
    const spec = npSpec({ podSelector: {}, ingress: [{ ports: [{ port: 80 }, { port: 53, protocol: 'UDP' }] }], egress: [{ ports: [{}] }] });
    assert.deepEqual(spec.ingress, [{ ports: [{ port: 80, protocol: 'TCP' }, { port: 53, protocol: 'UDP' }] }]);
    assert.deepEqual(spec.egress, [{ ports: [{ protocol: 'TCP' }] }]);
  });

  it('IngressClass parameters default to Cluster scope; Ingress has no defaults', () => {
    const ic = make('networking.k8s.io/v1', 'IngressClass', { spec: { controller: 'c', parameters: { kind: 'K', name: 'n' } } });
    assert.deepEqual(ic.spec, { controller: 'c', parameters: { kind: 'K', name: 'n', scope: 'Cluster' } });
    const ingressSpec = { rules: [{ http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 's', port: { number: 80 } } } }] } }] };
    assert.deepEqual(make('networking.k8s.io/v1', 'Ingress', { spec: ingressSpec }).spec, ingressSpec);
  });
});

describe('defaults: discovery, rbac, scheduling, storage, policy', () => {
  it('TestSetDefaultEndpointPort (discovery/v1): name "" and TCP', () => {
    const slice = make('discovery.k8s.io/v1', 'EndpointSlice', { addressType: 'IPv4', endpoints: [], ports: [{ port: 80 }, { name: 'dns', port: 53, protocol: 'UDP' }] });
    assert.deepEqual(slice.ports, [{ port: 80, name: '', protocol: 'TCP' }, { name: 'dns', port: 53, protocol: 'UDP' }]);
  });

  it('TestSetDefaultRoleBinding and subject apiGroups', () => {
    for (const kind of ['RoleBinding', 'ClusterRoleBinding']) {
      const b = make('rbac.authorization.k8s.io/v1', kind, {
        roleRef: { kind: 'Role', name: 'r' },
        subjects: [{ kind: 'User', name: 'u' }, { kind: 'Group', name: 'g' }, { kind: 'ServiceAccount', name: 's', namespace: 'n' }, { kind: 'User', name: 'v', apiGroup: 'other' }],
      });
      assert.deepEqual(b.roleRef, { kind: 'Role', name: 'r', apiGroup: 'rbac.authorization.k8s.io' }, kind);
      assert.deepEqual(b.subjects, [
        { kind: 'User', name: 'u', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'Group', name: 'g', apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'ServiceAccount', name: 's', namespace: 'n', apiGroup: '' },
        { kind: 'User', name: 'v', apiGroup: 'other' },
      ]);
    }
  });

  it('TestSetDefaultPreemptionPolicy (scheduling/v1)', () => {
    assert.equal(make('scheduling.k8s.io/v1', 'PriorityClass', { value: 1 }).preemptionPolicy, 'PreemptLowerPriority');
    assert.equal(make('scheduling.k8s.io/v1', 'PriorityClass', { value: 1, preemptionPolicy: 'Never' }).preemptionPolicy, 'Never');
  });

  it('TestSetDefaultVolumeBindingMode (storage/v1): Delete and Immediate', () => {
    const sc = make('storage.k8s.io/v1', 'StorageClass', { provisioner: 'p' });
    assert.equal(sc.reclaimPolicy, 'Delete');
    assert.equal(sc.volumeBindingMode, 'Immediate');
    const wait = make('storage.k8s.io/v1', 'StorageClass', { provisioner: 'p', reclaimPolicy: 'Retain', volumeBindingMode: 'WaitForFirstConsumer' });
    assert.equal(wait.reclaimPolicy, 'Retain');
    assert.equal(wait.volumeBindingMode, 'WaitForFirstConsumer');
  });

  it('TestSetDefaultCSIDriver (storage/v1)', () => {
    assert.deepEqual(make('storage.k8s.io/v1', 'CSIDriver', {}).spec, {
      attachRequired: true,
      podInfoOnMount: false,
      storageCapacity: false,
      fsGroupPolicy: 'ReadWriteOnceWithFSType',
      volumeLifecycleModes: ['Persistent'],
      requiresRepublish: false,
      seLinuxMount: false,
    });
  });

  it('PodDisruptionBudget: unhealthyPodEvictionPolicy is not defaulted', () => {
    const spec = { minAvailable: 1, selector: { matchLabels: { a: 'b' } } };
    assert.deepEqual(make('policy/v1', 'PodDisruptionBudget', { spec }).spec, spec);
  });
});

describe('defaults: admissionregistration.k8s.io/v1', () => {
  const hook = { name: 'h.example.com', clientConfig: { service: { namespace: 'n', name: 's' } }, rules: [{ operations: ['CREATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['pods'] }], sideEffects: 'None', admissionReviewVersions: ['v1'] };
  const hookDefaulted = {
    ...hook,
    clientConfig: { service: { namespace: 'n', name: 's', port: 443 } },
    rules: [{ ...hook.rules[0], scope: '*' }],
    failurePolicy: 'Fail',
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
    timeoutSeconds: 10,
  };

  it('TestDefaultAdmissionWebhook: validating webhooks', () => {
    assert.deepEqual(make('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', { webhooks: [hook] }).webhooks, [hookDefaulted]);
  });

  it('TestDefaultAdmissionWebhook: mutating webhooks also never reinvoke', () => {
    assert.deepEqual(make('admissionregistration.k8s.io/v1', 'MutatingWebhookConfiguration', { webhooks: [hook] }).webhooks, [
      { ...hookDefaulted, reinvocationPolicy: 'Never' },
    ]);
  });

  it('set webhook fields stay', () => {
    const set = { ...hook, failurePolicy: 'Ignore', matchPolicy: 'Exact', namespaceSelector: { matchLabels: { a: 'b' } }, timeoutSeconds: 5, rules: [{ ...hook.rules[0], scope: 'Namespaced' }] };
    const [out] = make('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', { webhooks: [set] }).webhooks as Record<string, unknown>[];
    assert.equal(out?.failurePolicy, 'Ignore');
    assert.equal(out?.matchPolicy, 'Exact');
    assert.deepEqual(out?.namespaceSelector, { matchLabels: { a: 'b' } });
    assert.equal(out?.timeoutSeconds, 5);
    assert.deepEqual(out?.rules, [{ ...hook.rules[0], scope: 'Namespaced' }]);
  });

  it('TestDefaultAdmissionPolicy: failurePolicy and match resources', () => {
    const rule = { operations: ['CREATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] };
    const policy = make('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicy', {
      spec: { matchConstraints: { resourceRules: [rule] }, validations: [{ expression: 'true' }] },
    });
    assert.deepEqual(policy.spec, {
      failurePolicy: 'Fail',
      matchConstraints: { resourceRules: [{ ...rule, scope: '*' }], matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} },
      validations: [{ expression: 'true' }],
    });
    const binding = make('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicyBinding', {
      spec: { policyName: 'p', validationActions: ['Deny'], matchResources: { excludeResourceRules: [rule] } },
    });
    assert.deepEqual(binding.spec, {
      policyName: 'p',
      validationActions: ['Deny'],
      matchResources: { excludeResourceRules: [{ ...rule, scope: '*' }], matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} },
    });
    const unmatched = make('admissionregistration.k8s.io/v1', 'ValidatingAdmissionPolicyBinding', { spec: { policyName: 'p' } });
    assert.deepEqual(unmatched.spec, { policyName: 'p' });
  });
});

describe('defaults: apiextensions.k8s.io/v1 CustomResourceDefinition', () => {
  it('TestDefaults: names, conversion and stored versions', () => {
    const crd = make('apiextensions.k8s.io/v1', 'CustomResourceDefinition', {
      spec: {
        group: 'stable.example.com',
        scope: 'Namespaced',
        names: { plural: 'crontabs', kind: 'CronTab' },
        versions: [
          { name: 'v1beta1', served: true, storage: false },
          { name: 'v1', served: true, storage: true },
        ],
      },
    });
    const spec = crd.spec as Record<string, unknown>;
    assert.deepEqual(spec.names, { plural: 'crontabs', kind: 'CronTab', singular: 'crontab', listKind: 'CronTabList' });
    assert.deepEqual(spec.conversion, { strategy: 'None' });
    assert.deepEqual(crd.status, { storedVersions: ['v1'] });
  });

  it('webhook conversion services default to port 443; set names stay', () => {
    const crd = make('apiextensions.k8s.io/v1', 'CustomResourceDefinition', {
      spec: {
        names: { plural: 'as', kind: 'A', singular: 'one', listKind: 'Many' },
        conversion: { strategy: 'Webhook', webhook: { clientConfig: { service: { namespace: 'n', name: 's' } }, conversionReviewVersions: ['v1'] } },
      },
    });
    const spec = crd.spec as { names: unknown; conversion: unknown };
    assert.deepEqual(spec.names, { plural: 'as', kind: 'A', singular: 'one', listKind: 'Many' });
    assert.deepEqual(spec.conversion, {
      strategy: 'Webhook',
      webhook: { clientConfig: { service: { namespace: 'n', name: 's', port: 443 } }, conversionReviewVersions: ['v1'] },
    });
  });
});
