/**
 * `kubesim apply --etcd-members N --etcd-latency model|instant --etcd-fault ACTION:TARGET@TIME`:
 * the flags' usage errors, the faults on the virtual clock (the leader stopped at 2 s: a new
 * leader at a higher term in the timeline and in the "etcd" block of --output json), and the
 * block's fields for every member.
 */
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runApplyCaptured as run } from './run-apply';
import { parseEtcdSimFlag, type EtcdSimFlags } from '../../../src/cli/etcd-sim-flags';
import type { TraceRecord } from '../../../src/engine/trace/types';

const CONFIGMAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n';

describe('kubesim apply: the simulated etcd flags', () => {
  let dir: string;
  let file: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-etcd-sim-'));
    file = join(dir, 'cm.yaml');
    writeFileSync(file, CONFIGMAP);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('rejects bad values with a usage error', () => {
    const flags = (): EtcdSimFlags => ({ faults: [] });
    assert.match(parseEtcdSimFlag('--etcd-members', '2', flags())!, /use 1, 3 or 5/);
    assert.match(parseEtcdSimFlag('--etcd-latency', 'fast', flags())!, /use model or instant/);
    assert.match(parseEtcdSimFlag('--etcd-fault', 'stop-leader', flags())!, /ACTION:TARGET@TIME/);
    assert.match(parseEtcdSimFlag('--etcd-fault', 'kill:leader@2s', flags())!, /stop, start, partition, heal or slow/);
    assert.match(parseEtcdSimFlag('--etcd-fault', 'stop:node-1@2s', flags())!, /leader or a member name/);
    assert.match(parseEtcdSimFlag('--etcd-fault', 'stop:leader@soon', flags())!, /virtual duration/);
    assert.match(parseEtcdSimFlag('--quota-backend-bytes', '2GiB', flags())!, /^error: invalid value for --quota-backend-bytes: "2GiB" \(use a number of bytes/);
    assert.match(parseEtcdSimFlag('--etcd-maintenance', 'compact', flags())!, /compact@TIME, defrag\[:MEMBER\]@TIME or disarm@TIME/);
    assert.match(parseEtcdSimFlag('--etcd-maintenance', 'snapshot@1s', flags())!, /use compact, defrag or disarm/);
    assert.match(parseEtcdSimFlag('--etcd-maintenance', 'compact:etcd-1@1s', flags())!, /only defrag takes a member/);
    assert.match(parseEtcdSimFlag('--etcd-maintenance', 'defrag:node-1@1s', flags())!, /leader or a member name/);
    const ok = flags();
    assert.equal(parseEtcdSimFlag('--quota-backend-bytes', '-1', ok), undefined);
    assert.equal(ok.quotaBackendBytes, -1);
    assert.equal(parseEtcdSimFlag('--etcd-maintenance', 'defrag:etcd-1@2m', ok), undefined);
    assert.deepEqual(ok.maintenance, [{ action: 'defrag', member: 'etcd-1', atMs: 120_000, text: 'defrag:etcd-1@2m' }]);
    assert.equal(parseEtcdSimFlag('--etcd-fault', 'slow:etcd-2@1m30s', ok), undefined);
    assert.deepEqual(ok.faults, [{ action: 'slow', target: 'etcd-2', atMs: 90_000, text: 'slow:etcd-2@1m30s' }]);
  });

  it('refuses a fault on a member the cluster does not have, and the flags with --etcd-endpoints', async () => {
    const r = await run(['-f', file, '--etcd-members', '3', '--etcd-fault', 'stop:etcd-3@1s']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^error: --etcd-fault stop:etcd-3@1s: etcd member "etcd-3" not found \(members: etcd-0, etcd-1, etcd-2\)/);
    const e = await run(['-f', file, '--etcd-members', '3', '--etcd-endpoints', 'http://127.0.0.1:2379']);
    assert.equal(e.code, 2);
    assert.match(e.stderr, /are for the simulated etcd/);
    const q = await run(['-f', file, '--quota-backend-bytes', '1000000', '--etcd-endpoints', 'http://127.0.0.1:2379']);
    assert.equal(q.code, 2);
    assert.match(q.stderr, /--quota-backend-bytes and --etcd-maintenance are for the simulated etcd/);
    const d = await run(['-f', file, '--etcd-members', '3', '--etcd-maintenance', 'defrag:etcd-4@1s']);
    assert.equal(d.code, 2);
    assert.match(d.stderr, /^error: --etcd-maintenance defrag:etcd-4@1s: etcd member "etcd-4" not found/);
  });

  it('stops the leader at 2 s: the timeline and the json "etcd" block show a new leader at a higher term', async () => {
    const argv = ['-f', file, '--nodes', '1', '--etcd-members', '3', '--etcd-latency', 'model', '--etcd-fault', 'stop:leader@2s', '--until', '5s'];
    const json = await run([...argv, '--output', 'json']);
    assert.equal(json.code, 0, json.stderr);
    const out = JSON.parse(json.stdout) as { etcd: { members: Record<string, unknown>[] }; records: TraceRecord[] };
    assert.equal(out.etcd.members.length, 3);
    for (const m of out.etcd.members) {
      assert.deepEqual(Object.keys(m), [
        'name',
        'role',
        'state',
        'term',
        'commitIndex',
        'appliedIndex',
        'revision',
        'compactRevision',
        'dbSizeBytes',
        'dbSizeInUseBytes',
        'quotaBackendBytes',
        'alarms',
        'watchers',
        'revisionsPerSecond',
        'commitLatencyMs',
      ]);
      assert.equal(m.quotaBackendBytes, 2 * 1024 * 1024 * 1024);
    }
    const stopped = out.etcd.members.filter((m) => m.state === 'stopped');
    assert.equal(stopped.length, 1);
    const leaders = out.etcd.members.filter((m) => m.role === 'leader');
    assert.equal(leaders.length, 1);
    assert.ok((leaders[0]!.term as number) > (stopped[0]!.term as number), JSON.stringify(out.etcd.members));
    const running = out.etcd.members.filter((m) => m.state === 'running');
    assert.equal(new Set(running.map((m) => m.revision)).size, 1);
    const timeline = await run(argv);
    assert.equal(timeline.code, 0, timeline.stderr);
    assert.match(timeline.stdout, new RegExp(`\\+2\\.000s +${stopped[0]!.name as string} +${stopped[0]!.name as string} stopped`));
    assert.match(timeline.stdout, new RegExp(`${leaders[0]!.name as string} +${leaders[0]!.name as string} became leader at term ${leaders[0]!.term as number}`));
  });

  it('a small --quota-backend-bytes fills up: NOSPACE, writes fail with etcd text; --etcd-maintenance compact, defrag and disarm recover', async function () {
    this.timeout(120_000);
    // The cluster's own churn (node leases every 10 s, node status) fills 450,000 bytes at about 40 s (seed kubesim):
    // the file grows about 4 KiB every 10 s, so when it crosses depends on a few pages of the bootstrap's bbolt
    // layout (how its writes fell into 100 ms batch commits). The maintenance comes about 20 s later: well inside
    // node-monitor-grace-period (50 s), so that no node goes Unknown and the node controller's writes after the
    // recovery (status, taints) do not fill the 90 KB of headroom the defragmentation leaves.
    const argv = ['-f', file, '--quota-backend-bytes', '450000', '--etcd-maintenance', 'compact@60s', '--etcd-maintenance', 'defrag@61s', '--etcd-maintenance', 'disarm@62s', '--until', '90s'];
    const json = await run([...argv, '--output', 'json']);
    assert.equal(json.code, 0, json.stderr);
    type Out = { records: TraceRecord[]; etcd: { members: { dbSizeBytes: number; alarms: string[]; quotaBackendBytes: number }[]; alarms: string[]; maintenance: { time: number; action: string; member?: string; revision?: number; dbSizeBeforeBytes?: number; dbSizeAfterBytes?: number; alarms?: string[]; error?: string }[] } };
    const out = JSON.parse(json.stdout) as Out;
    const start = out.records[0]!.time;
    const raised = out.records.filter((r) => r.type === 'etcd.member' && r.event === 'alarm-raised');
    assert.ok(raised.length >= 1 && raised[0]!.time - start < 60_000, 'NOSPACE raised before the maintenance');
    const failed = out.records.filter((r) => r.type === 'api.request' && r.code === 500);
    assert.ok(failed.length > 0);
    for (const r of failed) if (r.type === 'api.request') assert.equal(r.message, 'etcdserver: mvcc: database space exceeded');
    const steps = out.etcd.maintenance;
    assert.deepEqual(steps.map((s) => `${s.action}${s.member ? `:${s.member}` : ''}`), ['compact', 'defrag:etcd-0', 'defrag:etcd-1', 'defrag:etcd-2', 'disarm']);
    assert.ok(steps.every((s) => s.error === undefined), JSON.stringify(steps));
    for (const s of steps.filter((x) => x.action === 'defrag')) assert.ok(s.dbSizeAfterBytes! < s.dbSizeBeforeBytes!, JSON.stringify(s));
    // The disarm lists one alarm for each member that raised one before it (members whose own file had not
    // reached the quota yet raise none: the first alarm already stops every member's writes).
    const disarmedAt = steps[4]!.time;
    assert.equal(steps[4]!.alarms!.length, new Set(raised.filter((r) => r.time < disarmedAt).map((r) => r.type === 'etcd.member' && r.member)).size);
    for (const a of steps[4]!.alarms!) assert.match(a, /^memberID:\d+ alarm:NOSPACE $/);
    // After the recovery: no alarm, every member under its quota, writes succeed again.
    assert.deepEqual(out.etcd.alarms, []);
    for (const m of out.etcd.members) assert.ok(m.dbSizeBytes < m.quotaBackendBytes && m.alarms.length === 0, JSON.stringify(m));
    const lastFailure = Math.max(...failed.map((r) => r.time));
    assert.ok(out.records.some((r) => r.type === 'api.request' && r.verb === 'update' && r.code === 200 && r.time > lastFailure), 'a write succeeds after the recovery');
    const timeline = await run(argv);
    assert.match(timeline.stdout, /\+\d+\.\d{3}s +etcd-\d +etcd-\d raised alarm NOSPACE: its database \(\d+ bytes\) reached the quota of 450000 bytes/);
    assert.match(timeline.stdout, /etcdctl +compacted etcd at revision \d+/);
    assert.match(timeline.stdout, /etcdctl +defragmented etcd-0: its database file went from \d+ to \d+ bytes/);
    assert.match(timeline.stdout, /etcd-0 +alarm NOSPACE of etcd-0 disarmed: writes are accepted again/);
  });
  it('a binding etcd stored though it answered NOSPACE: the scheduler goes on, and the pod is bound (no crash of the run)', async function () {
    this.timeout(120_000);
    // A rollout whose new pods are bound while the database reaches the quota (seed kubesim): etcd's
    // quota applier stores one binding and answers "database space exceeded"; the informer then shows
    // the pod bound, so the scheduler's ForgetPod fails, as upstream's does, and is only logged.
    const argv = ['-f', 'examples/web.yaml', '-f', 'examples/web-v2.yaml', '--quota-backend-bytes', '700000', '--etcd-maintenance', 'compact@5s', '--etcd-maintenance', 'defrag@6s', '--etcd-maintenance', 'disarm@7s', '-o', 'json'];
    const r = await run(argv);
    assert.equal(r.code, 0, r.stderr.slice(-2000));
    assert.doesNotMatch(r.stderr, /cannot be forgotten|timer .* failed/);
    type Obj = { kind: string; metadata: { name: string }; spec?: { nodeName?: string } };
    const out = JSON.parse(r.stdout) as { records: TraceRecord[]; objects: Obj[] };
    const refused = out.records.filter((x) => x.type === 'api.request' && x.subresource === 'binding' && x.code === 500);
    assert.ok(refused.length > 0, 'a binding answered 500');
    for (const b of refused) if (b.type === 'api.request') assert.equal(b.message, 'etcdserver: mvcc: database space exceeded');
    // A pod bound though no binding of it was answered 201: the refused binding was stored.
    const boundOk = new Set(out.records.flatMap((x) => (x.type === 'api.request' && x.subresource === 'binding' && x.code === 201 ? [x.name] : [])));
    const storedAnyway = refused.filter((b) => b.type === 'api.request' && !boundOk.has(b.name) && out.objects.some((o) => o.kind === 'Pod' && o.metadata.name === b.name && o.spec?.nodeName));
    assert.ok(storedAnyway.length > 0, 'a refused binding was stored by the quota applier');
  });
  it('quorum lost to the end of the run: the summary lists the API server refuses are kubectl errors, not a crash', async function () {
    this.timeout(120_000);
    const argv = ['-f', file, '--nodes', '1', '--etcd-fault', 'stop:etcd-1@1s', '--etcd-fault', 'stop:etcd-2@1s', '--until', '3s'];
    const text = await run(argv);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /^configmap\/settings created$/m);
    assert.match(text.stdout, /etcd-1 +etcd-1 stopped/);
    // Each list is retried on the members as clientv3 retries an Unavailable read, until the
    // request deadline (60 s): no member has a leader to answer it.
    const errors = text.stderr.split('\n').filter((l) => l !== '');
    assert.ok(errors.length > 0 && errors.every((l) => l === 'Error from server: context deadline exceeded'), text.stderr);
    assert.doesNotMatch(text.stderr, /StatusError|\n +at /);
    const json = await run([...argv, '-o', 'json']);
    assert.equal(json.code, 1);
    const out = JSON.parse(json.stdout) as { listErrors?: { resource: string; status: { code: number; message: string } }[]; etcd: { members: { name: string; state: string }[] } };
    assert.ok(out.listErrors && out.listErrors.length === errors.length, json.stdout.slice(-2000));
    for (const e of out.listErrors) assert.deepEqual([e.status.code, e.status.message], [500, 'context deadline exceeded'], e.resource);
    assert.deepEqual(
      out.etcd.members.map((m) => [m.name, m.state]),
      [
        ['etcd-0', 'running'],
        ['etcd-1', 'stopped'],
        ['etcd-2', 'stopped'],
      ],
    );
  });
});
