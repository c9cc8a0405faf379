import { strict as assert } from 'node:assert';
import { Cache } from '../../../src/engine/scheduler/cache/cache';
import { PodInfo } from '../../../src/engine/scheduler/cache/pod-info';
import { makeNode, makePod } from './fake-host';

// The scheduler cache's ForgetPod (upstream's pkg/scheduler/backend/cache): an assumed pod whose
// binding failed is dropped; anything else is a failure the caller logs, with upstream's texts.
describe('scheduler cache: ForgetPod', () => {
  const setup = (): { cache: Cache; assumed: PodInfo } => {
    const cache = new Cache();
    cache.addNode(makeNode('n1'));
    cache.addNode(makeNode('n2'));
    const assumed = new PodInfo(makePod('p', { nodeName: 'n1', uid: 'u1' }));
    cache.assumePod(assumed);
    return { cache, assumed };
  };

  it('drops an assumed pod', () => {
    const { cache, assumed } = setup();
    assert.deepEqual(cache.forgetPod(assumed), { ok: true, value: undefined });
    assert.equal(cache.isAssumedPod('u1'), false);
    // Forgotten, it can be assumed again (on another node).
    cache.assumePod(new PodInfo(makePod('p', { nodeName: 'n2', uid: 'u1' })));
    assert.equal(cache.isAssumedPod('u1'), true);
  });

  it('fails for a pod the informer confirmed meanwhile (its binding was stored though the write answered an error)', () => {
    const { cache, assumed } = setup();
    cache.addPod(makePod('p', { nodeName: 'n1', uid: 'u1' }));
    assert.deepEqual(cache.forgetPod(assumed), { ok: false, error: "pod default/p(u1) wasn't assumed so cannot be forgotten" });
    assert.equal(cache.isAssumedPod('u1'), false);
  });

  it('fails for a pod the cache no longer holds, and for one held on another node', () => {
    const { cache, assumed } = setup();
    cache.removePod('u1');
    assert.deepEqual(cache.forgetPod(assumed), { ok: false, error: "pod default/p(u1) wasn't assumed so cannot be forgotten" });
    const other = setup();
    const elsewhere = new PodInfo(makePod('p', { nodeName: 'n2', uid: 'u1' }));
    assert.deepEqual(other.cache.forgetPod(elsewhere), { ok: false, error: 'pod default/p(u1) was assumed on n2 but assigned to n1' });
    assert.equal(other.cache.isAssumedPod('u1'), true);
  });
});
