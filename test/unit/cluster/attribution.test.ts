/**
 * The wiring's supports in the API server: which request wrote a revision (whichever of the
 * request and the watch cache gets there first), and watchers indexed by the node they ask
 * about (a kubelet's spec.nodeName=<node> pod watch only looks at that node's pods).
 */
import { strict as assert } from 'node:assert';
import { WriteAttribution } from '../../../src/engine/apiserver/write-attribution';
import { createCluster } from '../../../src/engine/cluster';
import { PODS } from '../../../src/engine/client/resources';
import type { KubeObject } from '../../../src/engine/api/types';

const alice = { request: 1, user: 'alice' };
const bob = { request: 2, user: 'bob' };

describe('write attribution', () => {
  it('names the writer whether the request or the watch cache comes first', () => {
    const w = new WriteAttribution();
    const a = w.expect('/registry/pods/default/a', 0, alice);
    w.landed(a, 10);
    assert.equal(w.observed('/registry/pods/default/a', 0, 10)?.user, 'alice');
    const b = w.expect('/registry/pods/default/a', 10, bob);
    assert.equal(w.observed('/registry/pods/default/a', 10, 11)?.user, 'bob', 'seen before the request knows its revision');
    w.landed(b, 11);
    w.finished([a, b]);
    assert.equal(w.observed('/registry/pods/default/a', 10, 11), undefined, 'nothing left behind');
  });

  it('of two writers expecting the same revision, the first announced won; a lost race is forgotten', () => {
    const w = new WriteAttribution();
    const first = w.expect('/registry/pods/default/a', 5, alice);
    const second = w.expect('/registry/pods/default/a', 5, bob);
    assert.equal(w.observed('/registry/pods/default/a', 5, 6)?.user, 'alice');
    w.finished([second]);
    w.landed(first, 6);
    assert.equal(w.observed('/registry/pods/default/a', 5, 7), undefined);
    assert.equal(w.observed('/registry/pods/default/b', 0, 8), undefined, 'an unannounced write has no writer');
  });
});

describe('pod watchers indexed by node', () => {
  it('deliver a node the events of its own pods and nothing of other pods', async () => {
    const cluster = await createCluster({ bare: true });
    try {
      const pods = cluster.client().resource(PODS, 'default');
      const seen: string[] = [];
      await cluster.client().resource(PODS).watch({ fieldSelector: 'spec.nodeName=n1' }, (e) => seen.push(`${e.type} ${(e.object as KubeObject).metadata.name}`));
      const pod = (name: string, node?: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { ...(node ? { nodeName: node } : {}), containers: [{ name: 'c', image: 'nginx' }] } });
      await cluster.client().resource({ group: '', version: 'v1', resource: 'serviceaccounts' }, 'default').create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } });
      await pods.create(pod('a', 'n1'));
      await pods.create(pod('b', 'n2'));
      await pods.create(pod('c'));
      await pods.patch('c', 'merge', { metadata: { labels: { x: 'y' } } });
      await pods.delete('a', { gracePeriodSeconds: 0 });
      await cluster.settle();
      // a: bound, marked for deletion, deleted; b (another node) and c (unbound) are not heard of.
      assert.deepEqual(seen, ['ADDED a', 'MODIFIED a', 'DELETED a']);
    } finally {
      await cluster.close();
    }
  });
});
