/** taint_eviction_test.go: which tolerations count and how long a pod may stay. */
import { strict as assert } from 'node:assert';
import { matchingTolerations, minTolerationMs, noExecuteTaints } from '../../../../src/engine/controllers/tainteviction/tolerations';

const unreachable = { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' };
const notReady = { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' };

describe('controllers/tainteviction tolerations', () => {
  it('GetMatchingTolerations and getMinTolerationTime', () => {
    assert.deepEqual(noExecuteTaints([unreachable, { key: 'x', effect: 'NoSchedule' }]), [unreachable]);
    assert.deepEqual(matchingTolerations([unreachable], []), { allTolerated: false, used: [] });
    assert.deepEqual(matchingTolerations([], []), { allTolerated: true, used: [] });
    const defaults = [
      { key: notReady.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: unreachable.key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ];
    const used = matchingTolerations([unreachable], defaults);
    assert.deepEqual(used, { allTolerated: true, used: [defaults[1]] });
    assert.equal(minTolerationMs(used.used), 300_000);
    assert.equal(minTolerationMs([{ operator: 'Exists' }]), -1, 'tolerates forever');
    assert.equal(minTolerationMs([{ operator: 'Exists', tolerationSeconds: 0 }, { operator: 'Exists', tolerationSeconds: 60 }]), 0);
    assert.equal(minTolerationMs([{ operator: 'Exists', tolerationSeconds: 60 }, { operator: 'Exists', tolerationSeconds: 30 }]), 30_000);
    assert.deepEqual(matchingTolerations([unreachable, notReady], [defaults[1]!]).allTolerated, false);
  });
});
