/**
 * The simulated etcd cluster as a whole: bootstrap as a fresh etcd 3.4 cluster, replication to
 * every member, determinism per seed, and the status the panel and the CLI show.
 */
import { strict as assert } from 'node:assert';
import { Clock } from '../../../../src/engine/clock';
import { Random } from '../../../../src/engine/random';
import { EtcdClient, createSimulatedEtcd, type SimulatedEtcdOptions } from '../../../../src/engine/store/etcdserver';

function etcd(options: SimulatedEtcdOptions = {}, seed = 'etcd-test'): { clock: Clock; client: EtcdClient } {
  const clock = new Clock(0);
  return { clock, client: createSimulatedEtcd(clock, { random: new Random(seed), ...options }) };
}

describe('simulated etcd cluster', () => {
  it('bootstraps as a fresh etcd 3.4 cluster does: term 2, raft index 2n+2, revision 1, one leader', () => {
    for (const members of [1, 3, 5]) {
      const { client } = etcd({ members });
      const status = client.cluster.status();
      assert.equal(status.length, members);
      assert.equal(status.filter((m) => m.role === 'leader').length, 1, `${members} members`);
      for (const m of status) {
        assert.equal(m.term, 2, `${members} members: ${m.name}`);
        // One configuration entry per member, the leader's empty entry, each member's publish, the cluster version.
        assert.equal(m.commitIndex, 2 * members + 2, `${members} members: ${m.name}`);
        assert.equal(m.appliedIndex, 2 * members + 2);
        assert.equal(m.revision, 1);
        assert.equal(m.state, 'running');
        assert.match(m.id, /^[0-9a-f]{16}$/);
      }
      assert.deepEqual(status.map((m) => m.name), Array.from({ length: members }, (_, i) => `etcd-${i}`));
    }
  });

  it('replicates every write to every member: the same revisions everywhere', async () => {
    for (const latency of ['instant', 'model'] as const) {
      const { clock, client } = etcd({ members: 3, latency });
      for (let i = 0; i < 20; i++) await clock.until(client.put({ key: `k${i % 4}`, value: `v${i}` }));
      await clock.until(client.deleteRange({ key: 'k0' }));
      await clock.advance(1000);
      const status = client.cluster.status();
      assert.deepEqual(new Set(status.map((m) => m.revision)), new Set([22]), latency);
      assert.deepEqual(new Set(status.map((m) => m.appliedIndex)), new Set([status[0]!.commitIndex]), latency);
      for (const m of client.cluster.members) {
        assert.deepEqual(m.mvcc.range({ key: 'k', rangeEnd: 'l' }).kvs.map((kv) => kv.value), ['v17', 'v18', 'v19'], `${latency} ${m.name}`);
      }
    }
  });

  it('is deterministic per seed: the same leader, member IDs and log', () => {
    const a = etcd({ members: 5 }, 'seed-1').client.cluster.status();
    const b = etcd({ members: 5 }, 'seed-1').client.cluster.status();
    assert.deepEqual(a, b);
    const leaders = new Set<string>();
    for (let i = 0; i < 20; i++) leaders.add(etcd({ members: 5 }, `seed-${i}`).client.cluster.status().find((m) => m.role === 'leader')!.name);
    assert.ok(leaders.size > 1, 'different seeds elect different first leaders');
  });

  it('charges a write the costs of the latency model: fsync and a round trip before the commit', async () => {
    const { clock, client } = etcd({ members: 3, latency: { rttMs: 0.5, walFsyncMs: 1 } });
    const start = clock.now();
    await clock.until(client.put({ key: 'a', value: '1' }));
    const took = clock.now() - start;
    // At least: a hop to a member, the leader's fsync in parallel with a round trip and a follower fsync, a hop back.
    assert.ok(took >= 0.25 + 0.5 + 1 + 0.25, `a write took ${took} ms`);
    assert.ok(took <= 5, `a write took ${took} ms`);
    const readStart = clock.now();
    await clock.until(client.range({ key: 'a', serializable: true }));
    assert.equal(clock.now() - readStart, 0.5, 'a serializable read costs the round trip to its member');
  });

  it('the instant model answers before the call returns (a write is done at the same virtual time)', async () => {
    const { clock, client } = etcd({ members: 3 });
    const start = clock.now();
    const res = await client.put({ key: 'a', value: '1' });
    assert.equal(res.header.revision, 2);
    assert.equal(clock.now(), start);
  });
});
