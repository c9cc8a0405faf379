/** autoscaling/v1 <-> v2 HorizontalPodAutoscaler conversion (pkg/apis/autoscaling/v1 conversion). */
import { strict as assert } from 'node:assert';
import { BEHAVIOR_ANNOTATION, CONDITIONS_ANNOTATION, hpaV1ToV2, hpaV2ToV1, METRIC_SPECS_ANNOTATION, METRIC_STATUSES_ANNOTATION } from '../../../src/engine/apiserver/conversion/autoscaling';
import type { KubeObject } from '../../../src/engine/api/types';

const ref = { kind: 'Deployment', name: 'api', apiVersion: 'apps/v1' };

describe('apiserver: autoscaling/v1 HorizontalPodAutoscalers kept as v2', () => {
  it('v1 targetCPUUtilizationPercentage is a cpu Utilization metric; no target at all is 80%', () => {
    const v1: KubeObject = { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'api' }, spec: { scaleTargetRef: ref, minReplicas: 2, maxReplicas: 4, targetCPUUtilizationPercentage: 50 } };
    assert.deepEqual((hpaV1ToV2(v1).spec as { metrics: unknown }).metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } }]);
    const bare = { ...v1, spec: { scaleTargetRef: ref, maxReplicas: 4 } };
    assert.deepEqual((hpaV1ToV2(bare).spec as { metrics: unknown }).metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }]);
  });

  it('reading v1 puts what v1 cannot say in annotations, and writing them back restores the v2 object', () => {
    const v2: KubeObject = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'api', annotations: { team: 'shop' } },
      spec: {
        scaleTargetRef: ref,
        minReplicas: 1,
        maxReplicas: 5,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
          { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
        ],
        behavior: { scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Max', policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
      },
      status: {
        currentReplicas: 2,
        desiredReplicas: 2,
        currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageValue: '30m', averageUtilization: 30 } } }],
        conditions: [{ type: 'AbleToScale', status: 'True', lastTransitionTime: '2025-01-01T00:00:15Z', reason: 'ReadyForNewScale', message: 'recommended size matches current size' }],
      },
    };
    const v1 = hpaV2ToV1(v2);
    assert.deepEqual(v1.spec, { scaleTargetRef: ref, minReplicas: 1, maxReplicas: 5, targetCPUUtilizationPercentage: 60 });
    assert.deepEqual(v1.status, { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 30 });
    const a = v1.metadata.annotations!;
    assert.equal(a.team, 'shop');
    assert.deepEqual(JSON.parse(a[METRIC_SPECS_ANNOTATION]!), [{ type: 'Resource', resource: { name: 'memory', targetAverageValue: '100Mi' } }]);
    assert.deepEqual(JSON.parse(a[METRIC_STATUSES_ANNOTATION]!), [{ type: 'Resource', resource: { name: 'cpu', currentAverageUtilization: 30, currentAverageValue: '30m' } }]);
    assert.ok(a[BEHAVIOR_ANNOTATION] && a[CONDITIONS_ANNOTATION]);
    const back = hpaV1ToV2(v1);
    assert.deepEqual(back.spec, v2.spec);
    assert.deepEqual(back.status, v2.status);
    assert.deepEqual(back.metadata.annotations, { team: 'shop' });
  });
});
