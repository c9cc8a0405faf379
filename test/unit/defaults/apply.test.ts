import { strict as assert } from 'node:assert';
import { applyDefaults } from '../../../src/engine/apiserver/defaults/apply';
import type { KubeObject } from '../../../src/engine/api/types';

describe('defaults: applyDefaults', () => {
  it('dispatches on the apiVersion group and kind', () => {
    const secret: KubeObject = { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } };
    applyDefaults(secret);
    assert.equal(secret.type, 'Opaque');
    // Same kind name in another group: no core defaults.
    const other: KubeObject = { apiVersion: 'example.com/v1', kind: 'Secret', metadata: { name: 's' } };
    applyDefaults(other);
    assert.equal(other.type, undefined);
  });

  it('leaves kinds without defaulters and objects without a type untouched', () => {
    const lease: KubeObject = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'a' } };
    applyDefaults(lease);
    assert.deepEqual(lease, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'l' }, spec: { holderIdentity: 'a' } });
    const untyped = { metadata: { name: 'x' } } as unknown as KubeObject;
    applyDefaults(untyped);
    assert.deepEqual(untyped, { metadata: { name: 'x' } });
  });

  it('never throws on malformed objects', () => {
    const shapes: unknown[] = [
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' }, spec: 'nope' },
      { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: null, spec: { updateStrategy: 7, template: [] } },
      { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [null, 3, { resources: { limits: 'x' } }] } },
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' }, spec: { ports: [{ port: 'x' }], sessionAffinity: 'ClientIP', sessionAffinityConfig: 1 } },
      { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'c' }, spec: { jobTemplate: { spec: { template: 'x' } } } },
      { apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'h' }, spec: { behavior: { scaleUp: 'x' } } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: 'x' } },
    ];
    for (const shape of shapes) assert.doesNotThrow(() => applyDefaults(shape as KubeObject), JSON.stringify(shape));
  });

  it('does not overwrite wrongly typed maps it would fill', () => {
    const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n', labels: 'x' as unknown as Record<string, string> } };
    applyDefaults(ns);
    assert.equal(ns.metadata.labels, 'x');
    const p: KubeObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p' },
      spec: { containers: [{ name: 'c', image: 'i:1', resources: { limits: { cpu: '1' }, requests: 'x' } }] },
    };
    applyDefaults(p);
    assert.deepEqual((p.spec as { containers: { resources: unknown }[] }).containers[0]?.resources, { limits: { cpu: '1' }, requests: 'x' });
  });
});
