import { strict as assert } from 'node:assert';
import { createCluster } from '../../../src/engine/cluster';
import { statusTransitions, summarizeChange } from '../../../src/engine/trace/diff';
import type { RevisionRecord } from '../../../src/engine/trace/revision';
import type { ApiRequestRecord } from '../../../src/engine/trace/apiserver';

describe('revision records', () => {
  it('summarize what changed between two versions of an object', () => {
    assert.equal(summarizeChange({ spec: { replicas: 3 } }, { spec: { replicas: 5 } }), 'spec.replicas: 3 → 5');
    assert.equal(
      summarizeChange({ metadata: { resourceVersion: '1', labels: { a: 'x' } } }, { metadata: { resourceVersion: '2', labels: { a: 'y', b: 'z' } } }),
      'metadata.labels.a: "x" → "y", metadata.labels.b: set "z"',
    );
    assert.equal(summarizeChange({ a: 1, b: 2, c: 3, d: 4 }, { a: 2, b: 3, c: 4, d: 5 }), 'a: 1 → 2, b: 2 → 3, c: 3 → 4 (+1 more)');
    assert.equal(summarizeChange({ s: { c: [1] } }, { s: { c: [1, 2] } }), 's.c: [1 item] → [2 items]');
    assert.equal(summarizeChange({ metadata: { resourceVersion: '1' } }, { metadata: { resourceVersion: '2' } }), 'no change');
  });

  it('name the status conditions a write set or changed, and the phase when it changed', () => {
    const cond = (type: string, status: string, extra: Record<string, string> = {}) => ({ type, status, ...extra });
    const cases: [string, unknown, unknown, ReturnType<typeof statusTransitions>][] = [
      ['no status at all', { spec: {} }, { spec: {} }, {}],
      ['a new pod\'s first conditions', { status: {} }, { status: { phase: 'Pending', conditions: [cond('PodScheduled', 'True')] } }, { conditions: { PodScheduled: 'True' }, phase: 'Pending' }],
      ['Ready flips, the phase stays', { status: { phase: 'Running', conditions: [cond('Ready', 'False'), cond('PodScheduled', 'True')] } }, { status: { phase: 'Running', conditions: [cond('PodScheduled', 'True'), cond('Ready', 'True')] } }, { conditions: { Ready: 'True' } }],
      ['a heartbeat only re-stamps', { status: { conditions: [cond('Ready', 'True', { lastHeartbeatTime: 'a' })] } }, { status: { conditions: [cond('Ready', 'True', { lastHeartbeatTime: 'b' })] } }, {}],
      ['a node goes Unknown', { status: { conditions: [cond('Ready', 'True')] } }, { status: { conditions: [cond('Ready', 'Unknown', { reason: 'NodeStatusUnknown' })] } }, { conditions: { Ready: 'Unknown' } }],
      ['malformed conditions are skipped', { status: { conditions: 'x' } }, { status: { conditions: [null, 3, { type: 'Ready' }] } }, {}],
    ];
    for (const [name, before, after, want] of cases) assert.deepEqual(statusTransitions(before, after), want, name);
  });

  it('are emitted for every etcd revision, caused by the request that wrote it', async () => {
    const cluster = await createCluster({ bare: true });
    const first = cluster.trace.next;
    const cm = cluster.client().resource({ group: '', version: 'v1', resource: 'configmaps' }, 'default');
    await cm.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'a' } });
    await cm.patch('c', 'merge', { data: { k: 'b' } });
    await cm.delete('c');
    await cluster.settle();
    const records = cluster.trace.since(first);
    const revisions = records.filter((r): r is RevisionRecord => r.type === 'store.revision');
    assert.deepEqual(
      revisions.map((r) => [r.operation, r.key, r.change, r.actor]),
      [
        ['create', '/registry/configmaps/default/c', 'created', 'kubernetes-admin'],
        ['update', '/registry/configmaps/default/c', 'data.k: "a" → "b"', 'kubernetes-admin'],
        ['delete', '/registry/configmaps/default/c', 'deleted', 'kubernetes-admin'],
      ],
    );
    for (const rev of revisions) {
      const cause = cluster.trace.get(rev.cause ?? -1) as ApiRequestRecord | undefined;
      assert.equal(cause?.type, 'api.request');
      assert.equal(cause?.revision, rev.revision);
    }
    await cluster.close();
  });
});
