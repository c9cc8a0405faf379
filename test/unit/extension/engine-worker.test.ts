import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineCallError, EngineClient, EngineCrashedError } from '../../../src/extension/engine/client';
import { RemoteClusterHost } from '../../../src/extension/engine/remote-host';
import { DEFAULT_SETTINGS, type KubeSimSettings } from '../../../src/extension/settings';
import type { MirrorSyncParams } from '../../../src/protocol/language-server';
import type { HostMessage } from '../../../src/protocol/panel';

// The bundle npm test builds first (scripts/build.mjs): a worker runs JavaScript files.
const WORKER = join(__dirname, '../../../dist/engine-worker.mjs');
const WEB = readFileSync(join(__dirname, '../../../examples/web.yaml'), 'utf8');
const settings: KubeSimSettings = { ...DEFAULT_SETTINGS, nodes: { ...DEFAULT_SETTINGS.nodes, count: 2 }, speed: 100 };

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('engine worker', function () {
  this.timeout(120_000);
  before(function () {
    if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: npm run build first`);
  });

  it('runs the cluster in its own thread: applies as kubectl does, the tree view and the mirror follow', async () => {
    const mirror: MirrorSyncParams[] = [];
    const crashes: string[] = [];
    const engine = await EngineClient.start({ workerFile: WORKER, settings, maxHeapMB: 2048, mirror: (p) => mirror.push(p), onCrash: (m) => crashes.push(m) });
    try {
      assert.deepEqual(engine.machines.map((m) => m.node), ['kubesim-control-plane', 'kubesim-worker', 'kubesim-worker2']);
      const results = await engine.call('apply', { file: 'examples/web.yaml', text: WEB, dryRun: false });
      assert.deepEqual(results.map((r) => r.message), ['deployment.apps/web created', 'service/web created']);
      await until(() => engine.view.list('pods').filter((p) => p.row.status === 'Running' && p.row.ready === '1/1').length === 3, 'three web pods Running in the view');
      assert.equal(engine.view.count('nodes'), 3);
      const node = engine.view.list('pods')[0]!.object.spec as { nodeName: string };
      assert.ok(engine.view.requested(node.nodeName).pods >= 1);
      await until(() => mirror.some((m) => m.replace) && mirror.some((m) => !m.replace && m.events.some((e) => e.object.kind === 'Deployment')), 'the mirror listing, then its events');
      const summary = await engine.call('summary', {});
      assert.equal(summary.pods.running >= 3, true);
      // The worker's own heap, with the limit the setting gave it (V8 adds its young generation to the old one's limit).
      const heap = await engine.call('heap', {});
      assert.ok(heap.used > 0 && heap.used <= heap.total, JSON.stringify(heap));
      assert.ok(heap.limit >= 2048 * 1024 * 1024 && heap.limit < 2304 * 1024 * 1024, JSON.stringify(heap));
      // The engine answers a refused call with its reason, and kubectl's errors as kubectl prints them.
      await assert.rejects(engine.call('scale', { ref: { kind: 'Deployment', namespace: 'default', name: 'web' }, replicas: -2 }), (err: Error) => err instanceof EngineCallError && /refused: call scale: replicas/.test(err.message));
      assert.deepEqual(await engine.call('scale', { ref: { kind: 'Deployment', namespace: 'default', name: 'nope' }, replicas: 2 }), { ok: false, message: 'Error from server (NotFound): deployments.apps "nope" not found' });
      const pauses: string[] = [];
      engine.onPacer((state) => pauses.push(state));
      await engine.call('pause', {});
      await until(() => pauses.includes('paused'), 'the pacer message');
      assert.equal(engine.clock.state, 'paused');
      assert.deepEqual(await engine.call('node', { action: 'stop', name: 'kubesim-worker' }), { ok: true, lines: ['node/kubesim-worker stopped (its kubelet is silent)'] });
      await until(() => engine.machines.some((m) => m.node === 'kubesim-worker' && !m.running), 'the machines message');
      assert.deepEqual(engine.rejected, []);
    } finally {
      await engine.dispose();
    }
    assert.deepEqual(crashes, [], 'an orderly stop is no crash');
  });

  it('serves what the extension host used to read in its thread: live objects, snapshots, the endpoint, etcd members', async () => {
    const crash = (m: string) => assert.fail(m);
    const host = await RemoteClusterHost.start({ workerFile: WORKER, settings, maxHeapMB: 2048, mirror: () => undefined, onNotice: (severity, m) => severity !== 'log' && crash(m), onCrash: crash });
    let restored: RemoteClusterHost | undefined;
    try {
      assert.deepEqual(host.etcdMembers()?.map((m) => m.name), ['etcd-0', 'etcd-1', 'etcd-2']);
      await host.apply('examples/web.yaml', WEB);
      const ref = { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespace: 'default', name: 'web' };
      let changes = 0;
      const stop = host.watchObject(ref, () => changes++);
      assert.match(await host.objectYaml(ref), /^apiVersion: apps\/v1\nkind: Deployment\n/m);
      await until(() => host.view.count('pods') === 3, 'the pods in the view');
      // The sidebar's commit index follows the writes, not only the members' role changes.
      const commitOf = () => Math.min(...host.etcdMembers()!.map((m) => m.commitIndex));
      const commitBefore = commitOf();
      await host.scale({ kind: 'Deployment', namespace: 'default', name: 'web' }, 4);
      await until(() => changes > 0, 'the watched object to change');
      await until(() => commitOf() > commitBefore, 'the members pushed as the writes commit');
      stop();
      assert.deepEqual(await host.manifestObjects('examples/web.yaml', WEB), [
        { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', namespace: 'default', name: 'web' },
        { group: '', version: 'v1', resource: 'services', kind: 'Service', namespace: 'default', name: 'web' },
      ]);
      const leaderBefore = host.etcdMembers()!.find((m) => m.role === 'leader')!.name;
      assert.equal((await host.etcdAction('stop', leaderBefore)).ok, true);
      await until(() => host.etcdMembers()!.some((m) => m.name === leaderBefore && m.state === 'stopped'), 'the members pushed after the fault');
      const served = await host.serveApi(0);
      assert.match(served.url, /^https:\/\/127\.0\.0\.1:\d+$/);
      assert.deepEqual(served.contexts, ['kubesim']);
      assert.match(served.kubeconfig, /token: /);
      await served.close();
      await host.pacer.pause();
      const snapshot = await host.snapshot();
      assert.equal(snapshot.format, 'kubesim/cluster-snapshot@1');
      restored = await RemoteClusterHost.start({ workerFile: WORKER, settings, maxHeapMB: 2048, restore: snapshot, mirror: () => undefined, onNotice: (severity, m) => severity !== 'log' && crash(m), onCrash: crash });
      await until(() => restored!.view.list('deployments').length === 1, 'the restored deployment');
      assert.equal(restored.view.get('deployments', 'default/web')?.object.metadata.uid, host.view.get('deployments', 'default/web')?.object.metadata.uid);
      assert.equal(restored.pacer.current.state, 'paused');
    } finally {
      await host.dispose();
      await restored?.dispose();
    }
  });

  it('feeds the control-plane panel from the worker: the sync, live records, time travel; hostile reads refused there too', async () => {
    const crash = (m: string) => assert.fail(m);
    const host = await RemoteClusterHost.start({ workerFile: WORKER, settings, maxHeapMB: 2048, mirror: () => undefined, onNotice: (severity, m) => severity !== 'log' && crash(m), onCrash: crash });
    try {
      const got: HostMessage[] = [];
      const panel = await host.connectPanel((m) => got.push(m));
      await panel.sync();
      await until(() => ['reset', 'records', 'state.reset', 'etcd.reset'].every((t) => got.some((m) => m.type === t)), 'the sync');
      const reset = got.find((m): m is Extract<HostMessage, { type: 'reset' }> => m.type === 'reset')!;
      assert.equal(reset.kinds['apps/deployments'], 'Deployment');
      await host.apply('examples/web.yaml', WEB);
      await until(() => got.some((m) => m.type === 'records' && m.records.some((r) => r.type === 'api.request' && (r as { resource?: string }).resource === 'deployments')), 'the apply in the live records');
      const rev = await host.summary();
      await panel.read({ type: 'getRevision', requestId: 7, revision: rev.revision, group: 'apps', resource: 'deployments', namespace: 'default', name: 'web' });
      await until(() => got.some((m) => m.type === 'revision' && m.requestId === 7), 'the time-travel answer');
      const answer = got.find((m): m is Extract<HostMessage, { type: 'revision' }> => m.type === 'revision')!;
      assert.equal(answer.at.state, 'found');
      await assert.rejects(panel.read({ type: 'getRevision', requestId: 8, revision: 5, group: '', resource: 'secrets', namespace: 'kube-system', name: '../../etc/passwd' } as never), /refused: call panelRead: message:/);
      await panel.hidden();
      await panel.dispose();
    } finally {
      await host.dispose();
    }
  });

  it('a worker whose heap runs out fails with a readable error, and the extension host lives on', async () => {
    const crashes: string[] = [];
    await assert.rejects(
      EngineClient.start({ workerFile: WORKER, settings, maxHeapMB: 16, mirror: () => undefined, onCrash: (m) => crashes.push(m) }),
      (err: Error) => err instanceof EngineCrashedError && /ran out of memory: its engine may use at most 16 MB \(the kubesim\.engine\.maxHeapMB setting\)\. Reset the cluster/.test(err.message),
    );
    assert.equal(crashes.length, 1);
  });
});
