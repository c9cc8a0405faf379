/**
 * etcd's backend quota and the NOSPACE alarm (etcdserver/quota.go, v3rpc/quota.go, apply.go's
 * capped applier), on the simulated cluster with a small --quota-backend-bytes: past it a put
 * fails with etcd's own text and raises NOSPACE on every member; the cluster then takes only
 * reads, deletes and compactions; compaction + defragmentation + alarm disarm bring writes back.
 */
import { strict as assert } from 'node:assert';
import { Clock } from '../../../../src/engine/clock';
import { Random } from '../../../../src/engine/random';
import { createSimulatedEtcd } from '../../../../src/engine/store/etcdserver';
import { StoreError } from '../../../../src/engine/store/types';

describe('simulated etcd: backend quota and the NOSPACE alarm', () => {
  it('refuses writes past the quota until compaction, defragmentation and alarm disarm', async () => {
    const clock = new Clock(0);
    const client = createSimulatedEtcd(clock, { members: 3, random: new Random('quota'), quotaBackendBytes: 256 * 1024 });
    const value = 'x'.repeat(20_000);
    let failed: StoreError | undefined;
    let written = 0;
    for (let i = 0; i < 100 && !failed; i++) {
      try {
        await clock.until(client.put({ key: `/registry/configmaps/default/c${i}`, value }));
        written++;
      } catch (err) {
        if (!(err instanceof StoreError)) throw err;
        failed = err;
      }
      await clock.advance(150);
    }
    assert.ok(failed, 'a put failed');
    assert.equal(failed.message, 'etcdserver: mvcc: database space exceeded');
    assert.ok(written > 5, `${written} puts went through first`);
    await clock.advance(100);
    const status = client.cluster.status();
    const raised = status.filter((m) => m.alarms.includes('NOSPACE'));
    assert.equal(raised.length, 1, 'the member that refused the put raised the alarm');
    assert.ok(raised[0]!.dbSizeBytes + 256 >= 256 * 1024 || raised[0]!.dbSizeBytes > 200 * 1024);
    assert.deepEqual(client.alarmList().map((a) => a.alarm), ['NOSPACE']);

    // Every member is capped: a small put fails too, while reads, deletes and compaction work.
    await assert.rejects(clock.until(client.put({ key: '/tiny', value: 'y' })), /database space exceeded/);
    await assert.rejects(clock.until(client.leaseGrant(60)), /database space exceeded/);
    assert.equal((await clock.until(client.range({ key: '/registry/configmaps/default/c0' }))).kvs.length, 1);
    const del = await clock.until(client.deleteRange({ key: '/registry/configmaps/', rangeEnd: '/registry/configmaps0' }));
    assert.equal(del.deleted, written);
    await clock.until(client.compact(del.header.revision));
    await clock.advance(300);
    const compacted = client.cluster.status();
    for (const m of compacted) {
      // Pages the compaction's own commit freed stay pending (in use) until a later commit.
      assert.ok(m.dbSizeInUseBytes < m.dbSizeBytes, `${m.name}: compaction frees pages inside the file (${m.dbSizeInUseBytes} of ${m.dbSizeBytes})`);
    }
    await assert.rejects(clock.until(client.put({ key: '/tiny', value: 'y' })), /database space exceeded/, 'still capped: the alarm is raised');

    for (const m of client.cluster.members) client.defragment(m.name);
    for (const m of client.cluster.status()) assert.ok(m.dbSizeBytes < 64 * 1024, `${m.name}: defragmented to ${m.dbSizeBytes}`);
    // The writes refused since then raised NOSPACE on the members they reached, each for itself.
    const before = client.alarmList();
    assert.ok(before.length >= 1 && before.every((a) => a.alarm === 'NOSPACE'));
    const disarmed = await clock.until(client.alarmDisarmAll());
    assert.deepEqual(disarmed, before);
    assert.deepEqual(client.alarmList(), []);
    await clock.until(client.put({ key: '/tiny', value: 'y' }));
    assert.deepEqual(client.cluster.status().map((m) => m.alarms), [[], [], []]);
    await client.close();
  });

  it('disarming while still over the quota lets the next write raise the alarm again (as etcd 3.4.23 does)', async () => {
    const clock = new Clock(0);
    const client = createSimulatedEtcd(clock, { members: 1, random: new Random('quota-2'), quotaBackendBytes: 128 * 1024 });
    const value = 'x'.repeat(20_000);
    for (let i = 0; i < 50; i++) {
      try {
        await clock.until(client.put({ key: `/k${i}`, value }));
      } catch {
        break;
      }
      await clock.advance(150);
    }
    assert.equal(client.alarmList().length, 1);
    await clock.until(client.alarmDisarmAll());
    assert.equal(client.alarmList().length, 0);
    await assert.rejects(clock.until(client.put({ key: '/k', value: 'y' })), /database space exceeded/);
    assert.equal(client.alarmList().length, 1);
    await client.close();
  });

  it('reports the quota in force: 2 GiB by default', () => {
    const client = createSimulatedEtcd(new Clock(0), { members: 1 });
    assert.equal(client.cluster.status()[0]!.quotaBackendBytes, 2 * 1024 * 1024 * 1024);
  });
});
