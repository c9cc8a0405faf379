import { strict as assert } from 'node:assert';
import { defaulted } from './defaulted';

// Tables after pkg/apis/apps/v1/defaults_test.go (release-1.35): TestSetDefaultDaemonSetSpec,
// TestSetDefaultStatefulSet, TestSetDefaultDeployment, TestSetDefaultReplicaSetReplicas.
const template = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'c', image: 'i:1' }] } };
const templateDefaulted = {
  metadata: { labels: { app: 'x' } },
  spec: {
    containers: [{ name: 'c', image: 'i:1', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File' }],
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    securityContext: {},
    terminationGracePeriodSeconds: 30,
    schedulerName: 'default-scheduler',
  },
};
const specOf = (kind: string, spec: object) =>
  defaulted({ apiVersion: 'apps/v1', kind, metadata: { name: 'x', namespace: 'default' }, spec }).spec as Record<string, unknown>;

describe('defaults: apps/v1', () => {
  it('TestSetDefaultDeployment: replicas, 25%/25% rolling update, history, progress deadline', () => {
    assert.deepEqual(specOf('Deployment', { template }), {
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: templateDefaulted,
    });
  });

  it('TestSetDefaultDeployment: set values stay, Recreate gets no rollingUpdate', () => {
    const spec = specOf('Deployment', {
      replicas: 5,
      strategy: { rollingUpdate: { maxSurge: 1 } },
      revisionHistoryLimit: 0,
      progressDeadlineSeconds: 30,
      template,
    });
    assert.equal(spec.replicas, 5);
    assert.deepEqual(spec.strategy, { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '25%' } });
    assert.equal(spec.revisionHistoryLimit, 0);
    assert.equal(spec.progressDeadlineSeconds, 30);
    assert.deepEqual(specOf('Deployment', { strategy: { type: 'Recreate' }, template }).strategy, { type: 'Recreate' });
  });

  it('TestSetDefaultReplicaSetReplicas', () => {
    assert.equal(specOf('ReplicaSet', { template }).replicas, 1);
    assert.equal(specOf('ReplicaSet', { replicas: 0, template }).replicas, 0);
    assert.deepEqual(specOf('ReplicaSet', { template }).template, templateDefaulted);
  });

  it('TestSetDefaultDaemonSetSpec: rolling update of 1 unavailable, 0 surge, 10 revisions', () => {
    assert.deepEqual(specOf('DaemonSet', { template }), {
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
      template: templateDefaulted,
    });
    assert.deepEqual(specOf('DaemonSet', { updateStrategy: { type: 'OnDelete' }, template }).updateStrategy, { type: 'OnDelete' });
    assert.deepEqual(specOf('DaemonSet', { updateStrategy: { rollingUpdate: { maxUnavailable: '10%' } }, template }).updateStrategy, {
      type: 'RollingUpdate',
      rollingUpdate: { maxUnavailable: '10%', maxSurge: 0 },
    });
  });

  it('TestSetDefaultStatefulSet: labels and default update strategy', () => {
    assert.deepEqual(specOf('StatefulSet', { template }), {
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      replicas: 1,
      revisionHistoryLimit: 10,
      template: templateDefaulted,
    });
  });

  it('TestSetDefaultStatefulSet: alternate policies, OnDelete and explicit RollingUpdate', () => {
    const parallel = specOf('StatefulSet', { podManagementPolicy: 'Parallel', template });
    assert.equal(parallel.podManagementPolicy, 'Parallel');
    assert.deepEqual(specOf('StatefulSet', { updateStrategy: { type: 'OnDelete' }, template }).updateStrategy, { type: 'OnDelete' });
    // The rollingUpdate block is only created when the type itself was defaulted.
    assert.deepEqual(specOf('StatefulSet', { updateStrategy: { type: 'RollingUpdate' }, template }).updateStrategy, { type: 'RollingUpdate' });
    assert.deepEqual(
      specOf('StatefulSet', { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 2 } }, template }).updateStrategy,
      { type: 'RollingUpdate', rollingUpdate: { partition: 2, maxUnavailable: 1 } },
    );
    const retention = specOf('StatefulSet', { persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' }, template });
    assert.deepEqual(retention.persistentVolumeClaimRetentionPolicy, { whenDeleted: 'Delete', whenScaled: 'Retain' });
  });

  it('StatefulSet claim templates get claim defaults', () => {
    const spec = specOf('StatefulSet', {
      template,
      volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1024Mi' } } } }],
    });
    assert.deepEqual(spec.volumeClaimTemplates, [
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: { name: 'www' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
        status: { phase: 'Pending' },
      },
    ]);
  });

  it('templates get PodSpec defaults but no pod-only ones', () => {
    const spec = specOf('Deployment', {
      template: { spec: { hostNetwork: true, containers: [{ name: 'c', image: 'i', ports: [{ containerPort: 80 }], resources: { limits: { cpu: '1' } } }] } },
    });
    const podTemplate = spec.template as { spec: Record<string, unknown> };
    assert.equal(podTemplate.spec.enableServiceLinks, undefined);
    assert.deepEqual((podTemplate.spec.containers as Record<string, unknown>[])[0], {
      name: 'c',
      image: 'i',
      imagePullPolicy: 'Always',
      ports: [{ containerPort: 80, protocol: 'TCP' }],
      resources: { limits: { cpu: '1' } },
      terminationMessagePath: '/dev/termination-log',
      terminationMessagePolicy: 'File',
    });
  });
});
