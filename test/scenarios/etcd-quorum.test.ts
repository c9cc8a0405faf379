/**
 * Quorum loss through the whole stack (three members, the latency model): with two of three
 * members stopped, a create fails after etcd's request timeout (7 s: 5 s + 2 election timeouts)
 * with etcd's text as kube-apiserver passes a storage error it does not map (code 500, reason
 * unknown: kubectl prints "Error from server: rpc error: code = Unknown desc = context deadline
 * exceeded"); in a namespace with a ResourceQuota the quota's status update meets the same
 * timeout and the write fails when quota evaluation gives up (10 s: "Internal error occurred:
 * resource quota evaluation timed out"; admission reads the namespace and the quotas from the
 * watch cache, not with live reads that clientv3 would retry for the request's 60 s); the etcd
 * readiness check fails with "context deadline exceeded" (/readyz?verbose: `[-]etcd failed: reason
 * withheld`); when a member comes back a leader is elected at a higher term and writes succeed
 * again; the last stopped member, restarted, catches up to the same revision and applied index.
 *
 * Requests from outside the simulation go through `cluster.api` (driven: awaiting one moves virtual
 * time); `cluster.server` is the simulation's own, and a promise from it awaited here with nothing
 * moving the clock never settles.
 */
import { strict as assert } from 'node:assert';
import { CONFIGMAPS } from '../../src/engine/client/resources';
import { StatusError } from '../../src/engine/api/status';
import { healthAnswer } from '../../src/http/health';
import { scenario } from './support';

const ETCD = { members: 3, latency: 'model' as const };

describe('scenario: etcd quorum loss and recovery', () => {
  it('writes fail after the request timeout with etcd text, readyz reports etcd failed, and all recovers', async function () {
    this.timeout(300_000);
    const s = await scenario({ etcd: ETCD });
    try {
      const etcd = s.cluster.etcd!;
      const clock = s.cluster.clock;
      const admin = s.cluster.client();
      await s.apply('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: limited\n');
      await s.apply('apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: q\n  namespace: limited\nspec:\n  hard:\n    configmaps: "10"\n');
      await s.cluster.advance(2000);
      const before = etcd.status().find((m) => m.role === 'leader')!;
      const leader = before.name;
      const others = etcd.status().filter((m) => m.name !== leader).map((m) => m.name);
      etcd.stop(others[0]!);
      etcd.stop(leader);
      // The survivor notices: check-quorum and pre-votes, no leader.
      await s.cluster.advance(3000);
      assert.equal(etcd.status().filter((m) => m.role === 'leader').length, 0);

      const create = async (ns: string, name: string): Promise<{ err: StatusError; ms: number }> => {
        const t0 = clock.now();
        try {
          await admin.resource(CONFIGMAPS, ns).create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { a: 'b' } });
        } catch (err) {
          if (!(err instanceof StatusError)) throw err;
          return { err, ms: clock.now() - t0 };
        }
        throw new Error(`the create of ${ns}/${name} succeeded without a quorum`);
      };
      const plain = await create('default', 'no-quorum');
      assert.equal(plain.err.status.code, 500);
      assert.ok(!plain.err.status.reason, 'no reason (StatusReasonUnknown)');
      // What real etcd 3.4 answers a put with no leader after its request timeout (test/etcd/differential.test.ts).
      assert.equal(plain.err.status.message, 'rpc error: code = Unknown desc = context deadline exceeded');
      assert.ok(plain.ms >= 7000 && plain.ms < 8000, `failed after ${plain.ms} ms`);

      // In a namespace with a quota the quota's status update is the first write to reach etcd;
      // it fails after the same timeout, checkQuotas retries it, and Evaluate gives up at 10 s.
      const quota = await create('limited', 'no-quorum');
      assert.equal(quota.err.status.code, 500);
      assert.equal(quota.err.status.reason, 'InternalError');
      assert.equal(quota.err.status.message, 'Internal error occurred: resource quota evaluation timed out');
      assert.ok(quota.ms >= 10_000 && quota.ms < 10_100, `quota admission failed after ${quota.ms} ms`);

      const probe = s.cluster.api.etcdHealth();
      await s.cluster.advance(3000);
      const readyz = await probe;
      assert.equal(readyz, 'error getting data from etcd: context deadline exceeded');
      // What GET /readyz?verbose answers with that check result (kube-apiserver withholds the reason).
      const verbose = healthAnswer('readyz', '', true, readyz)!;
      assert.equal(verbose.code, 500);
      assert.match(verbose.body, /^\[-\]etcd failed: reason withheld$/m);
      assert.match(verbose.body, /readyz check failed\n$/);

      // Recovery: one member back, a quorum of two, a new leader at a higher term.
      etcd.start(others[0]!);
      await s.cluster.advance(5000);
      const leaders = etcd.status().filter((m) => m.role === 'leader');
      assert.equal(leaders.length, 1);
      assert.ok(leaders[0]!.term > before.term, `new term ${leaders[0]!.term} > ${before.term}`);
      assert.equal(await s.cluster.api.etcdHealth(), undefined);
      assert.deepEqual(healthAnswer('readyz', '', true, undefined)!.code, 200);
      await admin.resource(CONFIGMAPS, 'default').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'back' }, data: { a: 'b' } });
      await admin.resource(CONFIGMAPS, 'limited').create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'back' }, data: { a: 'b' } });
      // The old leader comes back as a follower and catches up (by log or snapshot).
      etcd.start(leader);
      await s.cluster.advance(5000);
      const members = etcd.status();
      assert.equal(members.filter((m) => m.role === 'leader').length, 1);
      assert.equal(new Set(members.map((m) => m.revision)).size, 1, JSON.stringify(members.map((m) => [m.name, m.revision])));
      assert.equal(new Set(members.map((m) => m.appliedIndex)).size, 1, JSON.stringify(members.map((m) => [m.name, m.appliedIndex])));
      const records = s.cluster.trace.since(0).filter((r) => r.type === 'etcd.request');
      assert.ok(records.some((r) => r.type === 'etcd.request' && r.error === 'rpc error: code = Unknown desc = context deadline exceeded'));
    } finally {
      await s.close();
    }
  });
});
