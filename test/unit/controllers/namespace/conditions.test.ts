/** pkg/controller/namespace/deletion status_condition_utils_test.go: condition texts and transitions. */
import { strict as assert } from 'node:assert';
import { failureConditions, updateConditions } from '../../../../src/engine/controllers/namespace/conditions';
import { podsGracePeriodEstimate, remainingEstimate, requeueDelayMs } from '../../../../src/engine/controllers/namespace/estimate';
import { gvrString } from '../../../../src/engine/controllers/namespace/resources';

const T0 = '2025-01-01T00:00:00Z';
const T1 = '2025-01-01T00:01:00Z';
const empty = () => ({ deleteErrors: [], remainingByResource: new Map<string, number>(), remainingByFinalizer: new Map<string, number>() });

describe('controllers/namespace conditions', () => {
  it('all five ok conditions on a clean pass, in upstream order', () => {
    const { conditions, changed } = updateConditions([], failureConditions(empty(), T0), T0);
    assert.ok(changed);
    assert.deepEqual(
      conditions.map((c) => [c.type, c.status, c.reason, c.message]),
      [
        ['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
        ['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
        ['NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
        ['NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed'],
        ['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
      ],
    );
    assert.equal(updateConditions(conditions, failureConditions(empty(), T1), T1).changed, false);
  });

  it('failures: sorted messages; a status change moves lastTransitionTime, a message change does not', () => {
    const report = {
      deleteErrors: ['b failed', 'a failed'],
      remainingByResource: new Map([['pods.', 2], ['deployments.apps', 1]]),
      remainingByFinalizer: new Map([['foregroundDeletion', 1]]),
    };
    const first = updateConditions([], failureConditions(report, T0), T0).conditions;
    const get = (cs: typeof first, type: string) => cs.find((c) => c.type === type)!;
    assert.equal(get(first, 'NamespaceDeletionContentFailure').message, 'Failed to delete all resource types, 2 remaining: a failed, b failed');
    assert.equal(get(first, 'NamespaceDeletionContentFailure').reason, 'ContentDeletionFailed');
    assert.equal(get(first, 'NamespaceContentRemaining').message, 'Some resources are remaining: deployments.apps has 1 resource instances, pods. has 2 resource instances');
    assert.equal(get(first, 'NamespaceFinalizersRemaining').message, 'Some content in the namespace has finalizers remaining: foregroundDeletion in 1 resource instances');
    const second = updateConditions(first, failureConditions({ ...report, remainingByResource: new Map([['pods.', 1]]) }, T1), T1).conditions;
    assert.equal(get(second, 'NamespaceContentRemaining').lastTransitionTime, T0);
    const third = updateConditions(second, failureConditions(empty(), T1), T1).conditions;
    assert.equal(get(third, 'NamespaceContentRemaining').lastTransitionTime, T1);
    assert.equal(get(third, 'NamespaceContentRemaining').status, 'False');
  });

  it('estimates: the longest grace period of running pods, counted from the deletion; requeue after half plus a second', () => {
    const pod = (grace: number, phase = 'Running') => ({ apiVersion: 'v1', kind: 'Pod', metadata: {}, spec: { terminationGracePeriodSeconds: grace }, status: { phase } });
    assert.equal(podsGracePeriodEstimate([pod(30), pod(60, 'Succeeded'), pod(10)]), 30);
    assert.equal(remainingEstimate(30, 0, 29_999), 30);
    assert.equal(remainingEstimate(30, 0, 30_000), 0);
    assert.equal(requeueDelayMs(30), 16_000);
    assert.equal(requeueDelayMs(15), 8_000);
    assert.equal(gvrString({ group: '', version: 'v1', resource: 'pods' }), '/v1, Resource=pods');
  });
});
