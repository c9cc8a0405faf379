/**
 * deployment_util_test.go tables: template equality, new/old ReplicaSets, counts, fenceposts,
 * NewRSNewReplicas, conditions, complete/progressing/timed out, annotations and fractions.
 */
import { strict as assert } from 'node:assert';
import {
  nonNegativeInt32Annotation,
  replicasAnnotationsNeedUpdate,
  setNewReplicaSetAnnotations,
  setReplicasAnnotations,
} from '../../../../src/engine/controllers/deployment/annotations';
import { removeCondition, setCondition } from '../../../../src/engine/controllers/deployment/conditions';
import { getReplicaSetFraction } from '../../../../src/engine/controllers/deployment/proportion';
import {
  actualReplicaCount,
  findNewReplicaSet,
  findOldReplicaSets,
  isSaturated,
  replicaCount,
  terminatingReplicaCount,
} from '../../../../src/engine/controllers/deployment/replica-sets';
import {
  deploymentComplete,
  deploymentProgressing,
  deploymentTimedOut,
  maxUnavailable,
  minAvailable,
  newRSNewReplicas,
  resolveFenceposts,
} from '../../../../src/engine/controllers/deployment/strategy';
import { computeHash, equalIgnoreHash, safeEncodeString } from '../../../../src/engine/controllers/util/template-hash';
import type { Deployment, DeploymentCondition, DeploymentStatus } from '../../../../src/engine/controllers/deployment/types';
import type { PodTemplateSpec, ReplicaSet } from '../../../../src/engine/controllers/util/types/workload';
import { newDeployment, rs } from './fixtures';

function generateDeployment(image: string): Deployment {
  const d = newDeployment(image, 1, { selector: { name: image } });
  d.spec.template = {
    metadata: { labels: { name: image } },
    spec: {
      containers: [{ name: image, image, imagePullPolicy: 'Always', terminationMessagePath: '/dev/termination-log' }],
      dnsPolicy: 'ClusterFirst',
      terminationGracePeriodSeconds: 30,
      restartPolicy: 'Always',
      securityContext: {},
      enableServiceLinks: true,
    },
  };
  return d;
}

/** generateRS: a ReplicaSet running the Deployment's template. */
function generateRS(d: Deployment, name: string): ReplicaSet {
  const r = rs(name, 0, d.spec.template?.metadata?.labels, undefined);
  r.metadata.labels = { ...d.spec.template?.metadata?.labels };
  r.spec.template = structuredClone(d.spec.template);
  r.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: d.metadata.name ?? '', uid: d.metadata.uid ?? '', controller: true }];
  return r;
}

describe('controllers/deployment: util', () => {
  describe('EqualIgnoreHash', () => {
    const tpl = (name: string, node: string, annotations: Record<string, string>, labels: Record<string, string>): PodTemplateSpec => ({
      metadata: { name, annotations, labels },
      spec: { nodeName: node, containers: [] },
    });
    const h = 'pod-template-hash';
    const cases: [string, PodTemplateSpec, PodTemplateSpec, boolean][] = [
      ['Same spec, same labels', tpl('foo', 'foo-node', {}, { [h]: 'value-1', something: 'else' }), tpl('foo', 'foo-node', {}, { [h]: 'value-1', something: 'else' }), true],
      ['Same spec, only pod-template-hash label value is different', tpl('foo', 'foo-node', {}, { [h]: 'value-1', something: 'else' }), tpl('foo', 'foo-node', {}, { [h]: 'value-2', something: 'else' }), true],
      ["Same spec, the former doesn't have pod-template-hash label", tpl('foo', 'foo-node', {}, { something: 'else' }), tpl('foo', 'foo-node', {}, { [h]: 'value-2', something: 'else' }), true],
      ['Same spec, the label is different, the former lacks the hash, same number of labels', tpl('foo', 'foo-node', {}, { something: 'else' }), tpl('foo', 'foo-node', {}, { [h]: 'value-2' }), false],
      ['Same spec, the label is different, the latter lacks the hash, same number of labels', tpl('foo', 'foo-node', {}, { [h]: 'value-1' }), tpl('foo', 'foo-node', {}, { something: 'else' }), false],
      ['Same spec, the label is different, and the pod-template-hash label value is the same', tpl('foo', 'foo-node', {}, { [h]: 'value-1' }), tpl('foo', 'foo-node', {}, { [h]: 'value-1', something: 'else' }), false],
      ['Different spec, same labels', tpl('foo', 'foo-node', { former: 'value' }, { [h]: 'value-1', something: 'else' }), tpl('foo', 'foo-node', { latter: 'value' }, { [h]: 'value-1', something: 'else' }), false],
      ['Different spec, different pod-template-hash label value', tpl('foo-1', 'foo-node', {}, { [h]: 'value-1', something: 'else' }), tpl('foo-2', 'foo-node', {}, { [h]: 'value-2', something: 'else' }), false],
      ["Different spec, the former doesn't have pod-template-hash label", tpl('foo-1', 'foo-node-1', {}, { something: 'else' }), tpl('foo-2', 'foo-node-2', {}, { [h]: 'value-2', something: 'else' }), false],
      ['Different spec, different labels', tpl('foo', 'foo-node-1', {}, { something: 'else' }), tpl('foo', 'foo-node-2', {}, { nothing: 'else' }), false],
    ];
    for (const [name, a, b, expected] of cases) {
      it(name, () => {
        assert.equal(equalIgnoreHash(a, b), expected);
        assert.equal(equalIgnoreHash(b, a), expected, 'reverse order');
        assert.ok(a.metadata?.labels && b.metadata?.labels, 'labels untouched');
      });
    }

    it('treats empty lists and maps as missing and compares quantities by value (Semantic.DeepEqual)', () => {
      const a: PodTemplateSpec = { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1', memory: '1Gi' } }, env: [] }] } };
      const b: PodTemplateSpec = { metadata: { labels: { a: 'b' }, annotations: {} }, spec: { containers: [{ name: 'c', resources: { limits: { cpu: '1000m', memory: '1024Mi' } } }] } };
      assert.equal(equalIgnoreHash(a, b), true);
      const c = structuredClone(b);
      c.spec!.containers[0]!.resources!.limits!.cpu = '2';
      assert.equal(equalIgnoreHash(a, c), false);
    });
  });

  describe('FindNewReplicaSet / FindOldReplicaSets', () => {
    const deployment = generateDeployment('nginx');
    const newRS = generateRS(deployment, 'nginx-new');
    newRS.metadata.labels!['pod-template-hash'] = 'hash';
    newRS.metadata.creationTimestamp = '2016-01-01T00:01:00Z';
    newRS.spec.replicas = 1;
    const newRSDup = generateRS(deployment, 'nginx-dup');
    newRSDup.metadata.labels!['pod-template-hash'] = 'different-hash';
    newRSDup.metadata.creationTimestamp = '2016-01-01T00:00:00Z';
    const oldDeployment = generateDeployment('nginx');
    (oldDeployment.spec.template!.spec!.containers as { name: string }[])[0]!.name = 'nginx-old-1';
    const oldRS = generateRS(oldDeployment, 'nginx-old');
    oldRS.metadata.creationTimestamp = '2015-12-31T23:59:00Z';

    it('gets the new ReplicaSet with the same template but a different hash', () => {
      assert.equal(findNewReplicaSet(deployment, [newRS, oldRS]), newRS);
    });
    it('gets the oldest new ReplicaSet when several have the same template', () => {
      assert.equal(findNewReplicaSet(deployment, [newRS, oldRS, newRSDup]), newRSDup);
    });
    it('gets none', () => {
      assert.equal(findNewReplicaSet(deployment, [oldRS]), undefined);
    });
    it('gets old ReplicaSets, the required ones being those with replicas', () => {
      assert.deepEqual(findOldReplicaSets(deployment, [newRS, oldRS]), [[], [oldRS]]);
      assert.deepEqual(findOldReplicaSets(deployment, [oldRS]), [[], [oldRS]]);
      const [required, all] = findOldReplicaSets(deployment, [oldRS, newRS, newRSDup]);
      assert.deepEqual(required, [newRS]);
      assert.deepEqual(all, [oldRS, newRS]);
      assert.deepEqual(findOldReplicaSets(deployment, [newRS]), [[], []]);
    });
  });

  describe('GetReplicaCountForReplicaSets and the terminating count', () => {
    const rs1 = rs('foo-rs', 1, undefined, undefined);
    rs1.status = { observedGeneration: 1, replicas: 2, terminatingReplicas: 3 };
    const rs2 = rs('bar-rs', 2, undefined, undefined);
    rs2.status = { replicas: 3, terminatingReplicas: 1 };
    const rs3 = rs('unsynced-rs', 3, undefined, undefined);
    rs3.status = { replicas: 0 };
    const rs4 = rs('dropped-rs', 1, undefined, undefined);
    rs4.status = { observedGeneration: 1, replicas: 1 };
    const cases: [string, ReplicaSet[], number, number, number | undefined][] = [
      ['scaling down rs1', [rs1], 1, 2, 3],
      ['scaling down rs1 and rs2', [rs1, rs2], 3, 5, 4],
      ['scaling up rs3', [rs3], 3, 0, 0],
      ['scaling down rs1 and rs2 and scaling up rs3', [rs1, rs2, rs3], 6, 5, 4],
      ['invalid/unknown terminating status for rs4', [rs4], 1, 1, undefined],
      ['invalid/unknown terminating status for rs4 with rs1, rs2 and rs3', [rs1, rs2, rs3, rs4], 7, 6, undefined],
    ];
    for (const [name, sets, count, actual, terminating] of cases) {
      it(name, () => {
        assert.equal(replicaCount(sets), count);
        assert.equal(actualReplicaCount(sets), actual);
        assert.equal(terminatingReplicaCount(sets), terminating);
      });
    }
  });

  describe('ResolveFenceposts', () => {
    const cases: [string | undefined, string | undefined, number, number, number, boolean][] = [
      ['0%', '0%', 0, 0, 1, false],
      ['39%', '39%', 10, 4, 3, false],
      ['oops', '39%', 10, 0, 0, true],
      ['55%', 'urg', 10, 0, 0, true],
      [undefined, '39%', 10, 0, 3, false],
      ['39%', undefined, 10, 4, 0, false],
      [undefined, undefined, 10, 0, 1, false],
    ];
    cases.forEach(([surge, unavailable, desired, expectSurge, expectUnavailable, expectError], i) => {
      it(`#${i}: ${surge}/${unavailable} of ${desired}`, () => {
        const got = resolveFenceposts(surge, unavailable, desired);
        if (expectError) assert.ok(!got.ok);
        else assert.deepEqual(got, { ok: true, value: [expectSurge, expectUnavailable] });
      });
    });
    it('rounds 25%/25% of 10 to a surge of 3 and an unavailability of 2', () => {
      assert.deepEqual(resolveFenceposts('25%', '25%', 10), { ok: true, value: [3, 2] });
    });
  });

  describe('NewRSNewReplicas', () => {
    const cases: [string, string, number, number, number, number][] = [
      ['can not scale up - to newRSReplicas', 'RollingUpdate', 1, 5, 1, 5],
      ['scale up - to depReplicas', 'RollingUpdate', 6, 2, 10, 6],
      ['recreate - to depReplicas', 'Recreate', 3, 1, 1, 3],
    ];
    for (const [name, type, depReplicas, newRSReplicas, surge, expected] of cases) {
      it(name, () => {
        const d = generateDeployment('nginx');
        d.spec.replicas = depReplicas;
        d.spec.strategy = { type, rollingUpdate: { maxUnavailable: 1, maxSurge: surge } };
        const rs5 = generateRS(d, 'rs5');
        rs5.spec.replicas = 5;
        const newRC = generateRS(d, 'new');
        newRC.spec.replicas = newRSReplicas;
        assert.equal(newRSNewReplicas(d, [rs5], newRC), expected);
      });
    }
  });

  describe('conditions', () => {
    const progressing = (): DeploymentCondition => ({ type: 'Progressing', status: 'False', reason: 'ForSomeReason' });
    const progressing2 = (): DeploymentCondition => ({ type: 'Progressing', status: 'True', reason: 'BecauseItIs' });
    const available = (): DeploymentCondition => ({ type: 'Available', status: 'True', reason: 'AwesomeController' });
    it('sets for the first time, simply, and overwrites', () => {
      const s1: DeploymentStatus = {};
      setCondition(s1, available());
      assert.deepEqual(s1, { conditions: [available()] });
      const s2: DeploymentStatus = { conditions: [progressing()] };
      setCondition(s2, available());
      assert.deepEqual(s2, { conditions: [progressing(), available()] });
      const s3: DeploymentStatus = { conditions: [progressing()] };
      setCondition(s3, progressing2());
      assert.deepEqual(s3, { conditions: [progressing2()] });
    });
    it('keeps lastTransitionTime when only the reason changes', () => {
      const s: DeploymentStatus = { conditions: [{ type: 'Progressing', status: 'True', reason: 'A', lastTransitionTime: 't0', lastUpdateTime: 't0' }] };
      setCondition(s, { type: 'Progressing', status: 'True', reason: 'B', lastTransitionTime: 't1', lastUpdateTime: 't1' });
      assert.deepEqual(s.conditions, [{ type: 'Progressing', status: 'True', reason: 'B', lastTransitionTime: 't0', lastUpdateTime: 't1' }]);
    });
    it('removes', () => {
      const empty: DeploymentStatus = {};
      removeCondition(empty, 'Progressing');
      assert.deepEqual(empty, {});
      const one: DeploymentStatus = { conditions: [progressing()] };
      removeCondition(one, 'Progressing');
      assert.deepEqual(one, {});
      const two: DeploymentStatus = { conditions: [progressing(), available()] };
      removeCondition(two, 'ReplicaFailure');
      assert.deepEqual(two, { conditions: [progressing(), available()] });
    });
  });

  describe('DeploymentComplete', () => {
    const deployment = (desired: number, current: number, updated: number, available: number, maxUnav: number, surge: number): Deployment => {
      const d = newDeployment('d', desired, { maxSurge: surge, maxUnavailable: maxUnav });
      d.status = { replicas: current, updatedReplicas: updated, availableReplicas: available };
      return d;
    };
    const cases: [string, Deployment, boolean][] = [
      ['not complete: min but not all pods become available', deployment(5, 5, 5, 4, 1, 0), false],
      ['not complete: min availability is not honored', deployment(5, 5, 5, 3, 1, 0), false],
      ['complete', deployment(5, 5, 5, 5, 0, 0), true],
      ['not complete: all pods are available but not updated', deployment(5, 5, 4, 5, 0, 0), false],
      ['not complete: still running old pods', deployment(1, 2, 1, 1, 0, 1), false],
      ['not complete: one replica deployment never comes up', deployment(1, 1, 1, 0, 1, 1), false],
    ];
    for (const [name, d, expected] of cases) it(name, () => assert.equal(deploymentComplete(d, d.status!), expected));
  });

  describe('DeploymentProgressing', () => {
    const st = (replicas: number, updatedReplicas: number, readyReplicas: number, availableReplicas: number): DeploymentStatus => ({ replicas, updatedReplicas, readyReplicas, availableReplicas });
    const cases: [string, DeploymentStatus, DeploymentStatus, boolean][] = [
      ['progressing: updated pods', st(10, 4, 4, 4), st(10, 6, 4, 4), true],
      ['not progressing', st(10, 4, 4, 4), st(10, 4, 4, 4), false],
      ['progressing: old pods removed', st(10, 4, 6, 6), st(8, 4, 6, 6), true],
      ['not progressing: less new pods', st(10, 7, 3, 3), st(10, 6, 3, 3), false],
      ['progressing: less overall but more new pods', st(10, 4, 7, 7), st(8, 8, 5, 5), true],
      ['progressing: more ready pods', st(10, 10, 9, 8), st(10, 10, 10, 8), true],
      ['progressing: more available pods', st(10, 10, 10, 9), st(10, 10, 10, 10), true],
    ];
    for (const [name, old, next, expected] of cases) {
      it(name, () => {
        const d = newDeployment('d', 10);
        d.status = old;
        assert.equal(deploymentProgressing(d, next), expected);
      });
    }
  });

  describe('DeploymentTimedOut', () => {
    const at = (min: number, sec: number) => Date.UTC(2016, 0, 1, 0, min, sec);
    const deployment = (reason: string, pds: number | undefined, fromMs: number | undefined): Deployment => {
      const d = newDeployment('d', 1);
      if (pds !== undefined) d.spec.progressDeadlineSeconds = pds;
      d.status = { conditions: [{ type: 'Progressing', status: 'True', reason, ...(fromMs !== undefined ? { lastUpdateTime: new Date(fromMs).toISOString().replace('.000Z', 'Z') } : {}) }] };
      return d;
    };
    const cases: [string, Deployment, number, boolean][] = [
      ['nil progressDeadlineSeconds specified - no timeout', deployment('', undefined, at(1, 9)), at(1, 20), false],
      ['infinite progressDeadlineSeconds specified - no timeout', deployment('', 2147483647, at(1, 9)), at(1, 20), false],
      ['progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:09 => 11s', deployment('', 10, at(1, 9)), at(1, 20), true],
      ['progressDeadlineSeconds: 10s, now - started => 00:01:20 - 00:01:11 => 9s', deployment('', 10, at(1, 11)), at(1, 20), false],
      ['previous status was a complete deployment', deployment('NewReplicaSetAvailable', undefined, undefined), at(1, 20), false],
    ];
    for (const [name, d, now, expected] of cases) it(name, () => assert.equal(deploymentTimedOut(d, d.status!, now), expected));
  });

  describe('MaxUnavailable / MinAvailable', () => {
    const deployment = (replicas: number, maxUnav: number | string): Deployment => newDeployment('d', replicas, { maxSurge: 1, maxUnavailable: maxUnav });
    const recreate = (replicas: number): Deployment => {
      const d = newDeployment('d', replicas);
      d.spec.strategy = { type: 'Recreate' };
      return d;
    };
    const maxCases: [string, Deployment, number][] = [
      ['maxUnavailable less than replicas', deployment(10, 5), 5],
      ['maxUnavailable equal replicas', deployment(10, 10), 10],
      ['maxUnavailable greater than replicas', deployment(5, 10), 5],
      ['maxUnavailable with replicas is 0', deployment(0, 10), 0],
      ['maxUnavailable with Recreate deployment strategy', recreate(1), 0],
      ['maxUnavailable less than replicas with percents', deployment(10, '50%'), 5],
      ['maxUnavailable equal replicas with percents', deployment(10, '100%'), 10],
      ['maxUnavailable greater than replicas with percents', deployment(5, '100%'), 5],
    ];
    for (const [name, d, expected] of maxCases) it(name, () => assert.equal(maxUnavailable(d), expected));
    const minCases: [string, Deployment, number][] = [
      ['replicas greater than maxUnavailable', deployment(10, 5), 5],
      ['replicas equal maxUnavailable', deployment(10, 10), 0],
      ['replicas less than maxUnavailable', deployment(5, 10), 0],
      ['replicas is 0', deployment(0, 10), 0],
      ['minAvailable with Recreate deployment strategy', recreate(10), 0],
      ['replicas greater than maxUnavailable with percents', deployment(10, '60%'), 4],
      ['replicas equal maxUnavailable with percents', deployment(10, '100%'), 0],
      ['replicas less than maxUnavailable with percents', deployment(5, '100%'), 0],
    ];
    for (const [name, d, expected] of minCases) it(`MinAvailable: ${name}`, () => assert.equal(minAvailable(d), expected));
  });

  describe('annotations', () => {
    const cases: [string, Record<string, string> | undefined, number | undefined][] = [
      ['invalid empty', undefined, undefined],
      ['invalid', { test: 'invalid', foo: '2' }, undefined],
      ['invalid negative', { test: '-1', foo: '2' }, undefined],
      ['valid zero', { test: '0', foo: '2' }, 0],
      ['valid', { test: '13', foo: '2' }, 13],
      ['valid max', { test: '2147483647', foo: '2' }, 2147483647],
      ['invalid max out of range', { test: '2147483648', foo: '2' }, undefined],
      ['invalid max out of range 2', { test: '4294967296', foo: '2' }, undefined],
    ];
    for (const [name, annotations, expected] of cases) {
      it(`getNonNegativeInt32FromAnnotation: ${name}`, () => {
        const r = rs('r', 1, undefined, undefined);
        if (annotations) r.metadata.annotations = annotations;
        assert.equal(nonNegativeInt32Annotation(r, 'test'), expected);
      });
    }

    it('SetNewReplicaSetAnnotations keeps the revision history within the length limit', () => {
      const d = generateDeployment('nginx');
      d.metadata.annotations = { 'deployment.kubernetes.io/revision': '1' };
      const r = generateRS(d, 'nginx-rs');
      for (let i = 10; i < 20; i++) {
        const next = String(i + 1);
        setNewReplicaSetAnnotations(d, r, next, true, 5);
        if (i >= 12) assert.equal(r.metadata.annotations?.['deployment.kubernetes.io/revision-history'], `${i - 1},${i}`);
        assert.equal(r.metadata.annotations?.['deployment.kubernetes.io/revision'], next);
      }
    });

    it('SetReplicasAnnotations and IsSaturated', () => {
      const d = generateDeployment('nginx');
      const r = generateRS(d, 'nginx-rs');
      assert.equal(setReplicasAnnotations(r, 10, 11), true);
      assert.equal(r.metadata.annotations?.['deployment.kubernetes.io/desired-replicas'], '10');
      assert.equal(r.metadata.annotations?.['deployment.kubernetes.io/max-replicas'], '11');
      r.metadata.annotations!['deployment.kubernetes.io/desired-replicas'] = '1';
      r.status = { replicas: 0, availableReplicas: 1 };
      r.spec.replicas = 1;
      assert.equal(isSaturated(d, r), true);
    });

    const needCases: [string, Record<string, string> | undefined, boolean][] = [
      ['test Annotations nil', undefined, true],
      ['test desiredReplicas update', { 'deployment.kubernetes.io/desired-replicas': '8', 'deployment.kubernetes.io/max-replicas': '20' }, true],
      ['test maxReplicas update', { 'deployment.kubernetes.io/desired-replicas': '10', 'deployment.kubernetes.io/max-replicas': '16' }, true],
      ["test needn't update", { 'deployment.kubernetes.io/desired-replicas': '10', 'deployment.kubernetes.io/max-replicas': '20' }, false],
    ];
    for (const [name, annotations, expected] of needCases) {
      it(`ReplicasAnnotationsNeedUpdate: ${name}`, () => {
        const r = rs('hello', 1, { foo: 'bar' }, undefined);
        if (annotations) r.metadata.annotations = annotations;
        assert.equal(replicasAnnotationsNeedUpdate(r, 10, 20), expected);
      });
    }
  });

  describe('getReplicaSetFraction', () => {
    const cases: [string, number, number, number, number, Record<string, string> | undefined, number][] = [
      ['empty deployment always scales to 0', 0, 0, 0, 10, undefined, -10],
      ['unsynced deployment does not scale when max-replicas annotation is missing', 10, 0, 0, 5, undefined, 0],
      ['unsynced deployment does not scale when max-replicas annotation is 0', 10, 0, 0, 5, { 'deployment.kubernetes.io/max-replicas': '0' }, 0],
      ['scale up by 1/5 when max-replicas annotation is missing', 120, 100, 0, 50, undefined, 10],
      ['scale up by 1/5 when max-replicas annotation is 0', 120, 100, 0, 50, { 'deployment.kubernetes.io/max-replicas': '0' }, 10],
      ['scale up by 1/5 should increase RS replicas by 1/5', 120, 0, 0, 50, { 'deployment.kubernetes.io/max-replicas': '100' }, 10],
      ['scale up with maxSurge by 1/5 should increase RS replicas approximately by 1/5', 120, 0, 10, 50, { 'deployment.kubernetes.io/max-replicas': '110' }, 9],
      ['scale down by 1/6 should decrease RS replicas by 1/6', 10, 0, 0, 6, { 'deployment.kubernetes.io/max-replicas': '12' }, -1],
      ['scale down with maxSurge by 1/6 should decrease RS replicas approximately by 1/6', 100, 0, 10, 50, { 'deployment.kubernetes.io/max-replicas': '130' }, -8],
    ];
    for (const [name, replicas, statusReplicas, surge, rsReplicas, annotations, expected] of cases) {
      it(name, () => {
        const d = newDeployment('nginx', replicas, { maxSurge: surge, maxUnavailable: 1 });
        d.status = { replicas: statusReplicas };
        const r = rs('r', rsReplicas, undefined, undefined);
        if (annotations) r.metadata.annotations = annotations;
        assert.equal(getReplicaSetFraction(r, d), expected);
      });
    }
  });

  describe('ComputeHash', () => {
    const template: PodTemplateSpec = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } };
    it('differs with the collision count (TestComputeHash)', () => {
      assert.notEqual(computeHash({}, 1), computeHash({}, 2));
      assert.notEqual(computeHash({}, undefined), computeHash({}, 2147483647));
    });
    it('is deterministic, independent of key order, and made of the safe alphabet', () => {
      const reordered: PodTemplateSpec = { spec: { containers: [{ image: 'nginx:1.27', name: 'web' }] }, metadata: { labels: { app: 'web' } } };
      assert.equal(computeHash(template, undefined), computeHash(reordered, undefined));
      assert.match(computeHash(template, undefined), /^[4-9bcdf]{1,10}$/);
      assert.notEqual(computeHash(template, undefined), computeHash({ ...template, spec: { containers: [{ name: 'web', image: 'nginx:1.28' }] } }, undefined));
    });
    it('encodes decimal digits as SafeEncodeString does', () => {
      assert.equal(safeEncodeString('0123456789'), '456789bcdf');
    });
  });
});
