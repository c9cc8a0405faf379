import assert from 'node:assert/strict';
import type { JsonObject, KubeObject } from '../../../src/engine/api/types';
import { StatusError } from '../../../src/engine/api/status';
import type { ApplyRequest, FieldManagerScope } from '../../../src/engine/apiserver/apply';
import { FieldSet, applyPatch, field, keepUnchangedTimestamps, updateManagedFields } from '../../../src/engine/apiserver/apply';
import { schemaForKind } from '../../../src/engine/api/openapi';

const deployment = schemaForKind('apps', 'v1', 'Deployment')!;

const T0 = Date.parse('2025-01-01T00:00:00Z');
const at = (s: number): number => T0 + s * 1000;
const gvk = { group: 'apps', version: 'v1', kind: 'Deployment' };
/** The Deployment strategy's reset fields: status on the main resource, the rest on /status. */
const main: FieldManagerScope = { schema: deployment, gvk, now: T0, resetFields: FieldSet.of([field('status')]) };
const status: FieldManagerScope = {
  schema: deployment,
  gvk,
  now: T0,
  subresource: 'status',
  resetFields: FieldSet.of([field('spec')], [field('metadata')]),
};

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** What `kubectl apply --server-side -f nginx.yaml` sends. */
const config: JsonObject = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'nginx', namespace: 'default', labels: { app: 'nginx' } },
  spec: {
    replicas: 3,
    selector: { matchLabels: { app: 'nginx' } },
    template: {
      metadata: { labels: { app: 'nginx' } },
      spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
    },
  },
};

/** The object as stored after create: identity set, defaults applied. */
function stored(obj: KubeObject): KubeObject {
  const o = clone(obj) as any;
  o.metadata.uid = '6d3f7a52-0000-4000-8000-000000000001';
  o.metadata.resourceVersion = '10';
  o.metadata.generation = 1;
  o.metadata.creationTimestamp = '2025-01-01T00:00:00Z';
  o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } };
  o.spec.revisionHistoryLimit = 10;
  o.spec.progressDeadlineSeconds = 600;
  o.spec.template.metadata.creationTimestamp = null;
  o.spec.template.spec.restartPolicy = 'Always';
  o.spec.template.spec.containers[0].imagePullPolicy = 'IfNotPresent';
  o.spec.template.spec.containers[0].ports[0].protocol = 'TCP';
  o.status = {};
  return o;
}

function apply(live: KubeObject | undefined, applied: JsonObject, manager: string, extra: Partial<ApplyRequest> = {}): KubeObject {
  return applyPatch({ ...main, live, applied, manager, force: false, ...extra }).object;
}

function statusError(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof StatusError, String(err));
    return err;
  }
  assert.fail('no error');
}

const kubectlApplyFields = {
  'f:metadata': { 'f:labels': { 'f:app': {} } },
  'f:spec': {
    'f:replicas': {},
    'f:selector': {},
    'f:template': {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': {
        'f:containers': {
          'k:{"name":"nginx"}': {
            '.': {},
            'f:image': {},
            'f:name': {},
            'f:ports': { 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
          },
        },
      },
    },
  },
};

describe('server-side apply of a Deployment (kubectl apply --server-side)', () => {
  it('creates it with the managedFields kube-apiserver writes', () => {
    const { object, managedFields } = applyPatch({ ...main, live: undefined, applied: config, manager: 'kubectl', force: false });
    assert.deepStrictEqual(managedFields, [
      { manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: '2025-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: kubectlApplyFields },
    ]);
    assert.deepStrictEqual(object.metadata.managedFields, managedFields);
    // Merged onto a new Go object: its value-typed structs and null pointers come along.
    assert.deepStrictEqual((object as any).spec, {
      selector: { matchLabels: { app: 'nginx' } },
      strategy: {},
      template: {
        metadata: { creationTimestamp: null, labels: { app: 'nginx' } },
        spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }] },
      },
      replicas: 3,
    });
    // The fieldsV1 keys are in the order kube-apiserver emits them.
    assert.deepStrictEqual(Object.keys(managedFields![0]!.fieldsV1!['f:spec'] as object), ['f:replicas', 'f:selector', 'f:template']);
  });

  it('keeps the controller entries separate, the status writer under subresource "status"', () => {
    const live = stored(apply(undefined, config, 'kubectl'));
    const annotated = updateManagedFields({
      ...main,
      now: at(1),
      live,
      updated: { ...clone(live), metadata: { ...clone(live.metadata), annotations: { 'deployment.kubernetes.io/revision': '1' } } },
      manager: 'kube-controller-manager',
    });
    const withStatus = updateManagedFields({
      ...status,
      now: at(2),
      live: annotated,
      updated: {
        ...clone(annotated),
        status: {
          observedGeneration: 1,
          replicas: 3,
          updatedReplicas: 3,
          conditions: [{ type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated' }],
        },
      } as KubeObject,
      manager: 'kube-controller-manager',
    });
    assert.deepStrictEqual(withStatus.metadata.managedFields, [
      { manager: 'kubectl', operation: 'Apply', apiVersion: 'apps/v1', time: '2025-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: kubectlApplyFields },
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: '2025-01-01T00:00:01Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:annotations': { '.': {}, 'f:deployment.kubernetes.io/revision': {} } } },
      },
      {
        manager: 'kube-controller-manager',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: '2025-01-01T00:00:02Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:status': {
            'f:conditions': { '.': {}, 'k:{"type":"Progressing"}': { '.': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} } },
            'f:observedGeneration': {},
            'f:replicas': {},
            'f:updatedReplicas': {},
          },
        },
        subresource: 'status',
      },
    ]);
  });

  it('changes nothing when the same configuration is applied again', () => {
    const live = stored(apply(undefined, config, 'kubectl'));
    const again = applyPatch({ ...main, now: at(60), live, applied: clone(config), manager: 'kubectl', force: false });
    assert.deepStrictEqual(again.object, live);
  });

  it('reports a conflict with another applier', () => {
    const live = stored(apply(undefined, config, 'kubectl'));
    const err = statusError(() => apply(live, { ...clone(config), spec: { replicas: 5 } }, 'hpa-tool'));
    assert.deepStrictEqual(err.status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field: '.spec.replicas' }] },
    });
  });

  it('reports conflicts with an Update manager, grouped, and force moves ownership', () => {
    const created = updateManagedFields({ ...main, live: undefined, updated: clone(config) as KubeObject, manager: 'kubectl-client-side-apply' });
    const live = stored(created);
    const changed = clone(config) as any;
    changed.spec.replicas = 5;
    changed.spec.template.spec.containers[0].image = 'nginx:1.28';
    const err = statusError(() => apply(live, changed, 'kubectl'));
    assert.equal(
      err.status.message,
      'Apply failed with 2 conflicts: conflicts with "kubectl-client-side-apply" using apps/v1:\n- .spec.replicas\n- .spec.template.spec.containers[name="nginx"].image',
    );
    assert.deepStrictEqual(err.status.details?.causes, [
      { reason: 'FieldManagerConflict', message: 'conflict with "kubectl-client-side-apply" using apps/v1', field: '.spec.replicas' },
      {
        reason: 'FieldManagerConflict',
        message: 'conflict with "kubectl-client-side-apply" using apps/v1',
        field: '.spec.template.spec.containers[name="nginx"].image',
      },
    ]);

    const forced = apply(live, changed, 'kubectl', { force: true, now: at(5) }) as any;
    assert.equal(forced.spec.replicas, 5);
    const [kubectl, csa] = forced.metadata.managedFields;
    assert.equal(kubectl.manager, 'kubectl');
    assert.equal(kubectl.time, '2025-01-01T00:00:05Z');
    assert.deepStrictEqual(csa.fieldsV1['f:spec']['f:replicas'], undefined);
    assert.deepStrictEqual(csa.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"nginx"}'], { '.': {}, 'f:name': {}, 'f:ports': csa.fieldsV1['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"nginx"}']['f:ports'] });
  });

  it('removes fields the applier stops applying, unless someone else owns them', () => {
    const live = stored(apply(undefined, config, 'kubectl'));
    const withoutReplicas = clone(config) as any;
    delete withoutReplicas.spec.replicas;
    delete withoutReplicas.metadata.labels;
    const out = apply(live, withoutReplicas, 'kubectl', { now: at(3) }) as any;
    assert.equal(out.spec.replicas, undefined);
    assert.equal(out.metadata.labels, undefined);
    assert.equal(out.metadata.uid, live.metadata.uid);

    const scaled = updateManagedFields({ ...main, live, updated: { ...clone(live), spec: { ...clone(live).spec as object, replicas: 7 } } as KubeObject, manager: 'kubectl-scale' });
    const kept = apply(stored(scaled), withoutReplicas, 'kubectl', { now: at(4) }) as any;
    assert.equal(kept.spec.replicas, 7);
  });

  it('tracks objects nobody tracked yet under before-first-apply', () => {
    const untracked = stored(apply(undefined, config, 'kubectl'));
    delete untracked.metadata.managedFields;
    const err = statusError(() => apply(untracked, { ...clone(config), spec: { ...clone(config).spec as object, replicas: 4 } }, 'kubectl'));
    assert.equal(err.status.message, 'Apply failed with 1 conflict: conflict with "before-first-apply" using apps/v1: .spec.replicas');
    const out = apply(untracked, clone(config), 'other-applier', { now: at(9) });
    assert.deepStrictEqual(
      out.metadata.managedFields!.map((e) => [e.manager, e.operation, e.time]),
      [
        // A no-op apply records the new manager without a time.
        ['other-applier', 'Apply', undefined],
        ['before-first-apply', 'Update', '2025-01-01T00:00:09Z'],
      ],
    );
  });

  it('lets kubectl take over from client-side apply where the last-applied configuration still holds', () => {
    const lastApplied = JSON.stringify(config) + '\n';
    const csa = clone(config) as any;
    csa.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': lastApplied };
    const live = stored(updateManagedFields({ ...main, live: undefined, updated: csa, manager: 'kubectl-client-side-apply' }));
    const next = clone(config) as any;
    next.spec.replicas = 8;
    next.spec.template.spec.containers[0].image = 'nginx:1.28';
    const out = apply(live, next, 'kubectl', { now: at(2) }) as any;
    assert.equal(out.spec.replicas, 8);
    assert.equal(
      out.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'],
      '{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"labels":{"app":"nginx"},"name":"nginx","namespace":"default"},' +
        '"spec":{"replicas":8,"selector":{"matchLabels":{"app":"nginx"}},"template":{"metadata":{"labels":{"app":"nginx"}},' +
        '"spec":{"containers":[{"image":"nginx:1.28","name":"nginx","ports":[{"containerPort":80}]}]}}}}\n',
    );
    // Another manager gets no such pass.
    assert.equal(statusError(() => apply(live, next, 'helm')).code, 409);
  });

  it('keeps a changed live value in conflict even for kubectl', () => {
    const csa = clone(config) as any;
    csa.metadata.annotations = { 'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ ...config, spec: { replicas: 1 } }) };
    const live = stored(updateManagedFields({ ...main, live: undefined, updated: csa, manager: 'kubectl-client-side-apply' }));
    const next = clone(config) as any;
    next.spec.replicas = 8;
    assert.equal(
      statusError(() => apply(live, next, 'kubectl')).status.message,
      'Apply failed with 1 conflict: conflict with "kubectl-client-side-apply" using apps/v1: .spec.replicas',
    );
  });
});

describe('server-side apply: rejected requests', () => {
  const table: Array<[string, JsonObject, number, string]> = [
    ['another version', { ...config, apiVersion: 'apps/v1beta1' }, 400, 'invalid object type: apps/v1beta1, Kind=Deployment'],
    ['no apiVersion or kind', { metadata: { name: 'nginx' } }, 400, 'invalid object type: /, Kind='],
    ['a core apiVersion', { ...config, apiVersion: 'v1' }, 400, 'invalid object type: /v1, Kind=Deployment'],
    ['managedFields in the body', { ...config, metadata: { name: 'nginx', managedFields: [] } }, 400, 'metadata.managedFields must be nil'],
    [
      'an unknown field',
      { ...config, spec: { replicas: 1, foo: 'bar' } },
      500,
      'failed to create typed patch object (default/nginx; apps/v1, Kind=Deployment): .spec.foo: field not declared in schema',
    ],
    [
      'a string for a number',
      { ...config, spec: { replicas: '3' } },
      500,
      'failed to create typed patch object (default/nginx; apps/v1, Kind=Deployment): .spec.replicas: expected numeric (int or float), got string',
    ],
    [
      'a number for a string',
      { ...config, spec: { template: { spec: { containers: [{ name: 'nginx', image: 5 }] } } } },
      500,
      'failed to create typed patch object (default/nginx; apps/v1, Kind=Deployment): .spec.template.spec.containers[name="nginx"].image: expected string, got &value.valueUnstructured{Value:5}',
    ],
    [
      'duplicate list keys and a list for a map',
      { ...config, metadata: { name: 'nginx', labels: ['x'] }, spec: { template: { spec: { containers: [{ name: 'a' }, { name: 'a' }] } } } },
      500,
      'failed to create typed patch object (/nginx; apps/v1, Kind=Deployment): errors:\n  .metadata.labels: expected map, got &{[x]}\n  .spec.template.spec.containers: duplicate entries for key [name="a"]',
    ],
  ];
  for (const [name, body, code, message] of table) {
    it(name, () => {
      const err = statusError(() => apply(undefined, body, 'kubectl'));
      assert.equal(err.status.message, message);
      assert.equal(err.code, code);
      assert.equal(err.reason, code === 400 ? 'BadRequest' : '');
    });
  }
});

describe('server-side apply: list keys with schema defaults', () => {
  it('keys an item without its name by the default, leaving the name to validation', () => {
    const out = applyPatch({ ...main, live: undefined, applied: { ...config, spec: { template: { spec: { containers: [{ image: 'x' }] } } } }, manager: 'kubectl', force: false });
    assert.deepStrictEqual(out.managedFields![0]!.fieldsV1, {
      'f:metadata': { 'f:labels': { 'f:app': {} } },
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":""}': { '.': {}, 'f:image': {} } } } } },
    });
  });
});

describe('managedFields of non-apply writes', () => {
  it('gives the creator an Update entry, defaults included', () => {
    const created = updateManagedFields({ ...main, live: undefined, updated: stored(config as unknown as KubeObject), manager: 'kubectl-create' });
    assert.deepStrictEqual(created.metadata.managedFields, [
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: '2025-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
          'f:spec': {
            'f:progressDeadlineSeconds': {},
            'f:replicas': {},
            'f:revisionHistoryLimit': {},
            'f:selector': {},
            'f:strategy': { 'f:rollingUpdate': { '.': {}, 'f:maxSurge': {}, 'f:maxUnavailable': {} }, 'f:type': {} },
            'f:template': {
              'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } },
              'f:spec': {
                'f:containers': {
                  'k:{"name":"nginx"}': {
                    '.': {},
                    'f:image': {},
                    'f:imagePullPolicy': {},
                    'f:name': {},
                    'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
                  },
                },
                'f:restartPolicy': {},
              },
            },
          },
        },
      },
    ]);
  });

  it('merges repeated writes of one manager and leaves no-op writes alone', () => {
    const created = updateManagedFields({ ...main, live: undefined, updated: stored(config as unknown as KubeObject), manager: 'kubectl-create' });
    const noop = updateManagedFields({ ...main, now: at(30), live: created, updated: clone(created), manager: 'kubectl-edit' });
    assert.deepStrictEqual(noop.metadata.managedFields, created.metadata.managedFields);
    const edited = updateManagedFields({ ...main, now: at(31), live: created, updated: { ...clone(created), spec: { ...clone(created).spec as object, paused: true } } as KubeObject, manager: 'kubectl-edit' });
    assert.deepStrictEqual(edited.metadata.managedFields!.map((e) => [e.manager, e.time, e.fieldsV1]).slice(1), [
      ['kubectl-edit', '2025-01-01T00:00:31Z', { 'f:spec': { 'f:paused': {} } }],
    ]);
  });

  it('does not let the main resource own status, nor the status subresource own spec', () => {
    const live = stored(apply(undefined, config, 'kubectl'));
    const both = { ...clone(live), spec: { ...clone(live).spec as object, paused: true }, status: { replicas: 1 } } as KubeObject;
    const viaMain = updateManagedFields({ ...main, now: at(1), live, updated: both, manager: 'writer' });
    assert.deepStrictEqual(viaMain.metadata.managedFields![1]!.fieldsV1, { 'f:spec': { 'f:paused': {} } });
    const viaStatus = updateManagedFields({ ...status, now: at(1), live, updated: both, manager: 'writer' });
    assert.deepStrictEqual(viaStatus.metadata.managedFields![1]!.fieldsV1, { 'f:status': { 'f:replicas': {} } });
    assert.equal(viaStatus.metadata.managedFields![1]!.subresource, 'status');
  });

  it('takes managedFields from the request, resets them with [] or [{}], and then stops tracking', () => {
    const live = stored(apply(undefined, config, 'kubectl'));
    for (const reset of [[], [{}]]) {
      const cleared = updateManagedFields({ ...main, live, updated: { ...clone(live), metadata: { ...clone(live.metadata), managedFields: reset } }, manager: 'x' });
      assert.equal(cleared.metadata.managedFields, undefined);
      const later = updateManagedFields({ ...main, live: cleared, updated: { ...clone(cleared), spec: { ...clone(cleared).spec as object, paused: true } } as KubeObject, manager: 'y' });
      assert.equal(later.metadata.managedFields, undefined);
    }
    const replaced = [{ manager: 'someone', operation: 'Update' as const, apiVersion: 'apps/v1', fieldsType: 'FieldsV1' as const, fieldsV1: { 'f:spec': { 'f:paused': {} } } }];
    const taken = updateManagedFields({ ...main, live, updated: { ...clone(live), metadata: { ...clone(live.metadata), managedFields: replaced } }, manager: 'x' });
    assert.deepStrictEqual(taken.metadata.managedFields, replaced);
    const ignored = updateManagedFields({ ...status, live, updated: { ...clone(live), metadata: { ...clone(live.metadata), managedFields: replaced } }, manager: 'x' });
    assert.deepStrictEqual(ignored.metadata.managedFields, live.metadata.managedFields);
  });

  it('folds the oldest of more than ten Update managers into ancient-changes', () => {
    let obj = stored(apply(undefined, config, 'kubectl'));
    for (let i = 0; i < 11; i++) {
      obj = updateManagedFields({
        ...main,
        now: at(10 + i),
        live: obj,
        updated: { ...clone(obj), metadata: { ...clone(obj.metadata), annotations: { ...(obj.metadata.annotations ?? {}), [`a${i}`]: 'x' } } },
        manager: `writer-${String(i).padStart(2, '0')}`,
      });
    }
    const entries = obj.metadata.managedFields!;
    assert.deepStrictEqual(
      entries.map((e) => [e.manager, e.time]),
      [
        ['kubectl', '2025-01-01T00:00:00Z'],
        ...Array.from({ length: 9 }, (_, i) => [`writer-${String(i + 2).padStart(2, '0')}`, `2025-01-01T00:00:${12 + i}Z`]),
        ['ancient-changes', '2025-01-01T00:00:11Z'],
      ].sort((a, b) => (a[0] === 'kubectl' ? -1 : b[0] === 'kubectl' ? 1 : a[1]!.localeCompare(b[1]!) || a[0]!.localeCompare(b[0]!))),
    );
    const ancient = entries.find((e) => e.manager === 'ancient-changes')!;
    assert.deepStrictEqual(ancient.fieldsV1, { 'f:metadata': { 'f:annotations': { '.': {}, 'f:a0': {}, 'f:a1': {} } } });
  });
});

describe('keeping managedFields timestamps of no-op writes', () => {
  it('restores the old times when only they changed', () => {
    const live = stored(apply(undefined, config, 'kubectl'));
    const touched = clone(live);
    touched.metadata.managedFields![0]!.time = '2025-01-02T00:00:00Z';
    keepUnchangedTimestamps(touched, live);
    assert.equal(touched.metadata.managedFields![0]!.time, '2025-01-01T00:00:00Z');
    const changed = clone(live) as any;
    changed.metadata.managedFields[0].time = '2025-01-02T00:00:00Z';
    changed.spec.paused = true;
    keepUnchangedTimestamps(changed, live);
    assert.equal(changed.metadata.managedFields[0].time, '2025-01-02T00:00:00Z');
  });
});
