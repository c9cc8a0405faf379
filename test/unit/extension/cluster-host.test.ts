import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as HostModule from '../../../src/extension/cluster-host';
import type { ClusterHost } from '../../../src/extension/cluster-host';
import { SnapshotFile } from '../../../src/extension/persistence';
import { parseClusterSnapshot } from '../../../src/extension/snapshot';
import { EngineSession as ClusterSession } from '../../../src/extension/engine/engine-session';
import { DEFAULT_SETTINGS, type KubeSimSettings } from '../../../src/extension/settings';
import type { MirrorSyncParams } from '../../../src/protocol/language-server';
import type { WallClock } from '../../../src/engine/pacer';

const WEB = readFileSync(join(__dirname, '../../../examples/web.yaml'), 'utf8');

/** A wall clock that never ticks: the tests move virtual time themselves. */
const still: WallClock = { now: () => 0, after: () => () => undefined };

// The wall clock stands still (the tests move virtual time themselves), so requests must take
// none: with the latency model they would wait for a Pacer that never plays.
const settings: KubeSimSettings = { ...DEFAULT_SETTINGS, nodes: { ...DEFAULT_SETTINGS.nodes, count: 2 }, etcd: { ...DEFAULT_SETTINGS.etcd, latency: 'instant' } };

function podsSummary(host: ClusterHost): string[] {
  return host.view.list('pods').map((p) => `${p.object.metadata.name?.replace(/-[a-z0-9]+-[a-z0-9]+$/, '')} ${String(p.row.ready)} ${String(p.row.status)}`);
}

async function startHost(mirror: MirrorSyncParams[] = [], restore?: Parameters<typeof HostModule.ClusterHost.start>[0]['restore']): Promise<ClusterHost> {
  return HostModule.ClusterHost.start({ settings, mirror: (p) => mirror.push(p), onError: (err) => assert.fail(String(err)), wall: still, restore });
}

describe('extension cluster host', function () {
  this.timeout(120_000);

  it('applies a manifest as kubectl does, and the informer view sees the pods become ready', async () => {
    const mirror: MirrorSyncParams[] = [];
    const host = await startHost(mirror);
    try {
      assert.deepEqual(host.nodeNames(), ['kubesim-control-plane', 'kubesim-worker', 'kubesim-worker2']);
      assert.equal(mirror[0]?.replace, true, 'the language server gets a full listing first');
      assert.ok(mirror[0]!.events.some((e) => e.object.kind === 'Namespace' && (e.object.metadata as { name: string }).name === 'default'));
      const results = await host.apply('examples/web.yaml', WEB);
      assert.deepEqual(results.map((r) => r.message), ['deployment.apps/web created', 'service/web created']);
      assert.deepEqual((await host.apply('examples/web.yaml', WEB)).map((r) => r.message), ['deployment.apps/web unchanged', 'service/web unchanged']);
      await host.cluster.advance(30_000);
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(podsSummary(host), ['web 1/1 Running', 'web 1/1 Running', 'web 1/1 Running']);
      const summary = await host.summary();
      assert.deepEqual({ ...summary, revision: 0, time: 0 }, { revision: 0, time: 0, nodes: { total: 3, ready: 3 }, pods: { running: 3, pending: 0, failed: 0 }, clock: 'running', speed: 1, user: 'kubernetes-admin' });
      await new Promise((r) => setTimeout(r, 200));
      assert.ok(mirror.slice(1).some((m) => !m.replace && m.events.some((e) => e.object.kind === 'Deployment')), 'watch events follow the listing');
    } finally {
      await host.dispose();
    }
  });

  it('answers a user without permissions with the API server Forbidden, as kubectl prints it', async () => {
    const host = await startHost();
    try {
      host.user = { username: 'jane', groups: ['system:authenticated'] };
      const [r] = await host.apply('web.yaml', WEB);
      assert.equal(r!.action, 'failed');
      assert.match(r!.message, /^Error from server \(Forbidden\): error when retrieving current configuration of:|deployments.apps "web" is forbidden: User "jane" cannot (get|patch) resource "deployments" in API group "apps" in the namespace "default"/);
      const scaled = await host.scale({ kind: 'Deployment', namespace: 'default', name: 'web' }, 2);
      assert.deepEqual(scaled, { ok: false, message: 'Error from server (Forbidden): deployments.apps "web" is forbidden: User "jane" cannot patch resource "deployments/scale" in API group "apps" in the namespace "default"' });
    } finally {
      await host.dispose();
    }
  });

  it('deletes the objects of a manifest with kubectl delete -f words', async () => {
    const host = await startHost();
    try {
      await host.apply('web.yaml', WEB);
      assert.deepEqual((await host.deleteManifest('web.yaml', WEB)).map((r) => r.message), ['deployment.apps "web" deleted from default namespace', 'service "web" deleted from default namespace']);
      assert.deepEqual((await host.deleteManifest('web.yaml', WEB)).map((r) => r.message), [
        'Error from server (NotFound): error when deleting "web.yaml": deployments.apps "web" not found',
        'Error from server (NotFound): error when deleting "web.yaml": services "web" not found',
      ]);
    } finally {
      await host.dispose();
    }
  });

  it('a saved session restores with every object, revision and pod; pods are not restarted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-session-'));
    const file = new SnapshotFile(join(dir, 'cluster.json'));
    const deps = { load: () => HostModule, settings: () => settings, file, mirror: () => undefined, report: (m: string) => assert.fail(m), warn: (m: string) => assert.fail(m) };
    try {
      const first = new ClusterSession(deps);
      const host = await first.get();
      host.pacer.pause();
      await host.apply('web.yaml', WEB);
      await host.cluster.advance(30_000);
      const before = podsSummary(host);
      const pods = host.view.list('pods').map((p) => [p.object.metadata.name, p.object.metadata.uid, (p.object.status as { podIP?: string }).podIP]);
      const revision = (await host.cluster.store.status()).revision;
      await first.dispose();

      const second = new ClusterSession(deps);
      const again = await second.get();
      try {
        assert.equal(again.pacer.current.state, 'paused', 'the clock state is restored');
        assert.equal((await again.cluster.store.status()).revision >= revision, true);
        assert.deepEqual(podsSummary(again), before);
        await again.cluster.advance(20_000);
        await new Promise((r) => setImmediate(r));
        assert.deepEqual(
          again.view.list('pods').map((p) => [p.object.metadata.name, p.object.metadata.uid, (p.object.status as { podIP?: string }).podIP]),
          pods,
          'the same pods with the same IPs',
        );
        assert.deepEqual(podsSummary(again), before);
        // New objects get names and uids of their own, not those the first run handed out.
        assert.deepEqual(await again.scale({ kind: 'Deployment', namespace: 'default', name: 'web' }, 5), { ok: true, lines: ['deployment.apps/web scaled'] });
        await again.cluster.advance(20_000);
        await new Promise((r) => setImmediate(r));
        const all = again.view.list('pods').map((p) => p.object);
        assert.equal(all.length, 5);
        const uids = [...all, ...again.view.objects('namespaces'), ...again.view.objects('nodes'), ...again.view.objects('replicasets'), ...again.view.objects('services'), ...again.view.objects('events')].map((o) => o.metadata.uid);
        assert.equal(new Set(uids).size, uids.length, 'every uid is unique');
        assert.equal(new Set(all.map((p) => p.metadata.name)).size, 5);
        assert.deepEqual(podsSummary(again), [...before, 'web 1/1 Running', 'web 1/1 Running'].sort());
      } finally {
        await second.dispose();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a reload in the middle of a rolling update loses nothing: the rollout carries on to the end', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-rollout-'));
    const file = new SnapshotFile(join(dir, 'cluster.json'));
    const deps = { load: () => HostModule, settings: () => settings, file, mirror: () => undefined, report: (m: string) => assert.fail(m), warn: (m: string) => assert.fail(m) };
    const images = (host: ClusterHost) =>
      host.view
        .objects('pods')
        .filter((p) => !p.metadata.deletionTimestamp)
        .map((p) => `${(p.spec as { containers: { image: string }[] }).containers[0]!.image} ${(p.status as { phase?: string }).phase}`)
        .sort();
    try {
      const first = new ClusterSession(deps);
      const host = await first.get();
      // The test moves virtual time itself, and says the clock runs (so it is restored running).
      const advance = async (h: ClusterHost, ms: number) => {
        h.pacer.pause();
        await h.pacer.idle();
        await h.cluster.advance(ms);
        h.pacer.resume();
      };
      await host.apply('web.yaml', WEB);
      await advance(host, 30_000);
      assert.deepEqual((await host.apply('web.yaml', WEB.replace('nginx:1.27', 'nginx:1.28'))).map((r) => r.message), ['deployment.apps/web configured', 'service/web unchanged']);
      await advance(host, 2_000);
      await new Promise((r) => setImmediate(r));
      const midway = images(host);
      assert.ok(midway.some((i) => i.startsWith('nginx:1.28')) && midway.some((i) => i === 'nginx:1.27 Running'), `mid-rollout: ${midway.join(', ')}`);
      await first.dispose();

      const second = new ClusterSession(deps);
      const again = await second.get();
      try {
        assert.equal(again.pacer.current.state, 'running');
        await advance(again, 120_000);
        await new Promise((r) => setImmediate(r));
        assert.deepEqual(images(again), ['nginx:1.28 Running', 'nginx:1.28 Running', 'nginx:1.28 Running']);
        const [deployment] = again.view.list('deployments');
        assert.deepEqual([deployment!.row.ready, deployment!.row['up-to-date'], deployment!.row.available], ['3/3', 3, 3]);
        const replicaSets = again.view.list('replicasets').map((r) => `${String(r.row.desired)}/${String(r.row.ready)}`);
        assert.deepEqual(replicaSets.sort(), ['0/0', '3/3']);
      } finally {
        await second.dispose();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a reload keeps the story: the trace comes back with the cluster, ids going on from it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-trace-'));
    const file = new SnapshotFile(join(dir, 'cluster.json'));
    const deps = { load: () => HostModule, settings: () => settings, file, mirror: () => undefined, report: (m: string) => assert.fail(m), warn: (m: string) => assert.fail(m) };
    try {
      const first = new ClusterSession(deps);
      const host = await first.get();
      host.pacer.pause();
      const [applied] = await host.apply('web.yaml', WEB);
      await host.cluster.advance(30_000);
      const story = host.trace.records().map((r) => JSON.stringify(r));
      const next = host.trace.next;
      assert.ok(story.length > 500, `${story.length} records`);
      await first.dispose();

      const second = new ClusterSession(deps);
      const again = await second.get();
      try {
        const restored = again.trace.records();
        assert.deepEqual(restored.slice(0, story.length).map((r) => JSON.stringify(r)), story, 'every record as it was, ids and causes kept');
        assert.ok(restored.slice(story.length).every((r) => r.id >= next), 'the new session\'s records come after');
        const request = again.trace.get(applied!.trace!);
        assert.equal(request?.type, 'api.request');
        assert.match(JSON.stringify(request), /"verb":"patch"/);
        // An imported snapshot starts a story of its own: the saved trace is written anew with it.
        const imported = await second.restore(again.snapshot());
        const own = imported.trace.records().map((r) => JSON.stringify(r));
        await second.save();
        const reread = await new SnapshotFile(join(dir, 'cluster.json')).load(settings.traceBufferSize);
        assert.deepEqual(reread!.trace.records.slice(0, own.length).map((r) => JSON.stringify(r)), own);
        assert.equal(reread!.trace.records[0]!.id, 1);
      } finally {
        await second.dispose();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a damaged save is moved aside, the user is warned where it went, and a new cluster starts without touching it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-damaged-'));
    const path = join(dir, 'cluster.json');
    const warnings: string[] = [];
    const deps = { load: () => HostModule, settings: () => settings, file: new SnapshotFile(path), mirror: () => undefined, report: (m: string) => assert.fail(m), warn: (m: string) => void warnings.push(m) };
    try {
      const damaged = '{"format":"kubesim/cluster-snapshot@1","seed":"kubesim","time":17356896';
      writeFileSync(path, damaged);
      const session = new ClusterSession(deps);
      assert.equal(await session.hasSaved(), true, 'a damaged save counts as one: the session starts at once and tells');
      const host = await session.get();
      try {
        assert.equal(warnings.length, 1);
        const m = /^KubeSim: the saved cluster could not be read \(not a KubeSim cluster snapshot: .*\); it was moved to (.*cluster\.json\.damaged-[0-9TZ-]+)\. A new cluster starts\.$/.exec(warnings[0]!);
        assert.ok(m, warnings[0]);
        assert.equal(readFileSync(m[1]!, 'utf8'), damaged);
        assert.deepEqual(host.nodeNames(), ['kubesim-control-plane', 'kubesim-worker', 'kubesim-worker2']);
        await session.save();
        assert.equal(parseClusterSnapshot(readFileSync(path, 'utf8')).seed, 'kubesim', 'the new cluster is saved in its place');
        assert.equal(readFileSync(m[1]!, 'utf8'), damaged, 'the damaged one is left as it was');
      } finally {
        await session.dispose();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('node operations answer in kubectl words; drain waits for the evicted pods to go', async () => {
    const host = await startHost();
    try {
      await host.apply('web.yaml', WEB);
      await host.cluster.advance(30_000);
      await new Promise((r) => setImmediate(r));
      const onWorker = host.view.podsOnNode('kubesim-worker').map((p) => p.key);
      assert.ok(onWorker.length > 0);
      // What the tree's node item shows: the requests of its pods, as the scheduler counts them (web.yaml: 100m, 128Mi each).
      assert.deepEqual(host.view.requested('kubesim-worker'), { milliCPU: 100 * onWorker.length, memory: 128 * 1024 ** 2 * onWorker.length, pods: onWorker.length });
      assert.deepEqual(await host.cordon('kubesim-worker2'), { ok: true, lines: ['node/kubesim-worker2 cordoned'] });
      assert.deepEqual(await host.cordon('kubesim-worker2'), { ok: true, lines: ['node/kubesim-worker2 already cordoned'] });
      assert.deepEqual(await host.uncordon('kubesim-worker2'), { ok: true, lines: ['node/kubesim-worker2 uncordoned'] });
      const draining = host.drain('kubesim-worker');
      // Virtual time moves on while drain waits, as the pacer would move it.
      const ticking = (async () => {
        for (let i = 0; i < 60; i++) {
          await host.cluster.advance(1000);
          await new Promise((r) => setImmediate(r));
        }
      })();
      const drained = await draining;
      await ticking;
      assert.ok(drained.ok);
      assert.deepEqual(drained.lines, [
        'node/kubesim-worker cordoned',
        ...onWorker.map((k) => `evicting pod ${k}`),
        ...onWorker.map((k) => `pod/${k.split('/')[1]} evicted`),
        'node/kubesim-worker drained',
      ]);
      assert.deepEqual(await host.addNode(settings), { ok: true, lines: ['node/kubesim-worker3 joined'] });
      assert.deepEqual(await host.stopNode('kubesim-worker3'), { ok: true, lines: ['node/kubesim-worker3 stopped (its kubelet is silent)'] });
      assert.equal(host.isNodeRunning('kubesim-worker3'), false);
      assert.deepEqual(await host.startNode('kubesim-worker3'), { ok: true, lines: ['node/kubesim-worker3 started'] });
      assert.deepEqual(await host.cordon('nope'), { ok: false, message: 'Error from server (NotFound): nodes "nope" not found' });
    } finally {
      await host.dispose();
    }
  });

  it('kubesim.etcd.quotaBackendBytes becomes every member\'s quota (etcd\'s 2 GiB when 0)', async () => {
    for (const [quota, expected] of [[0, 2 * 1024 ** 3], [1_000_000, 1_000_000]] as const) {
      const host = await HostModule.ClusterHost.start({ settings: { ...settings, etcd: { ...settings.etcd, quotaBackendBytes: quota } }, mirror: () => undefined, onError: (err) => assert.fail(String(err)), wall: still });
      try {
        assert.deepEqual(host.etcdMembers()?.map((m) => m.quotaBackendBytes), [expected, expected, expected]);
      } finally {
        await host.dispose();
      }
    }
  });
});
