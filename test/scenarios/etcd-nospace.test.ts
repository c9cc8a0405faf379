/**
 * NOSPACE and its recovery through the API server: a cluster whose etcd has a small
 * --quota-backend-bytes fills up; creates then fail as kube-apiserver answers them (code 500,
 * etcd's own text: kubectl prints "Error from server: etcdserver: mvcc: database space
 * exceeded"), reads and deletes still work, and compaction, defragmentation of every member and
 * alarm disarm bring writes back.
 */
import { strict as assert } from 'node:assert';
import { CONFIGMAPS } from '../../src/engine/client/resources';
import { StatusError } from '../../src/engine/api/status';
import { scenario } from './support';

describe('scenario: etcd NOSPACE and its recovery', () => {
  it('fills the quota, fails writes with etcd text, recovers after compact + defrag + alarm disarm', async function () {
    this.timeout(120_000);
    const s = await scenario({ etcd: { members: 3, quotaBackendBytes: 2 * 1024 * 1024 } });
    try {
      const etcd = s.cluster.etcd!;
      const drive = <T>(work: Promise<T>): Promise<T> => s.cluster.clock.until(work);
      const client = s.cluster.store as unknown as import('../../src/engine/store/etcdserver').EtcdClient;
      const cms = s.cluster.client().resource(CONFIGMAPS, 'default');
      const data = { blob: 'x'.repeat(100_000) };
      let failure: StatusError | undefined;
      let created = 0;
      for (let i = 0; i < 60 && !failure; i++) {
        try {
          await drive(cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `fill-${i}` }, data }));
          created++;
        } catch (err) {
          if (!(err instanceof StatusError)) throw err;
          failure = err;
        }
        await s.cluster.clock.advance(200);
      }
      assert.ok(failure, 'a create failed');
      assert.equal(failure.status.code, 500);
      assert.equal(failure.status.message, 'etcdserver: mvcc: database space exceeded');
      assert.ok(created > 3);
      assert.ok(etcd.alarms().some((a) => a.alarm === 'NOSPACE'));
      assert.ok(etcd.status().some((m) => m.alarms.includes('NOSPACE')));
      // Reads and deletes still work.
      assert.equal((await drive(cms.list())).items.filter((c: { metadata: { name?: string } }) => c.metadata.name?.startsWith('fill-')).length, created);
      for (let i = 0; i < created; i++) await drive(cms.delete(`fill-${i}`));
      // A write is still refused while the alarm is raised.
      await assert.rejects(drive(cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' }, data: { a: 'b' } })), /database space exceeded/);
      // The operator's recovery: compact to the current revision, defragment every member, disarm.
      const { revision } = await drive(client.status());
      await drive(client.compact(revision));
      await s.cluster.clock.advance(200);
      for (const m of etcd.members) client.defragment(m.name);
      for (const m of etcd.status()) assert.ok(m.dbSizeBytes < 2 * 1024 * 1024, `${m.name} ${m.dbSizeBytes}`);
      await drive(client.alarmDisarmAll());
      assert.deepEqual(etcd.alarms(), []);
      await drive(cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after' }, data: { a: 'b' } }));
      assert.equal((await drive(cms.get('after'))).metadata.name, 'after');
    } finally {
      await s.close();
    }
  });
});
