/**
 * etcd faults on the full cluster (three members, the latency model): the leader stopped
 * during a rollout (a new leader at a higher term, the rollout completes, the stopped member
 * catches up when it starts again).
 */
import { strict as assert } from 'node:assert';
import { scenario, deployment } from './support';
import type { EtcdMemberRecord } from '../../src/engine/trace/etcd';

const ETCD = { members: 3, latency: 'model' as const };

describe('scenario: etcd faults', () => {
  it('a rollout goes on when the etcd leader stops: a new leader at a higher term, every replica updated', async function () {
    this.timeout(300_000);
    const s = await scenario({ etcd: ETCD });
    try {
      await s.apply(deployment('web', 4));
      assert.equal((await s.cluster.settle()).settled, true);
      const etcd = s.cluster.etcd!;
      const before = etcd.status().find((m) => m.role === 'leader')!;
      await s.apply(deployment('web', 4, { image: 'nginx:1.28' }));
      etcd.stop('leader');
      assert.equal((await s.cluster.settle()).settled, true);
      const after = etcd.status().filter((m) => m.role === 'leader');
      assert.equal(after.length, 1);
      assert.notEqual(after[0]!.name, before.name);
      assert.ok(after[0]!.term > before.term);
      const pods = (await s.pods()).filter((p) => !p.metadata.deletionTimestamp);
      assert.equal(pods.length, 4);
      assert.ok(pods.every((p) => p.spec.containers[0]!.image === 'nginx:1.28'), JSON.stringify(pods.map((p) => p.spec.containers[0]!.image)));
      const records = s.cluster.trace.since(0).filter((r): r is EtcdMemberRecord => r.type === 'etcd.member');
      assert.ok(records.some((r) => r.event === 'stopped' && r.member === before.name));
      assert.ok(records.some((r) => r.event === 'leader' && r.member === after[0]!.name && r.term === after[0]!.term));
      etcd.start(before.name);
      await s.cluster.advance(3000);
      assert.equal(new Set(etcd.status().map((m) => m.revision)).size, 1, 'every member on the same revision');
    } finally {
      await s.close();
    }
  });
});
