import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClusterSession, type SessionDeps } from '../../../src/extension/session';
import { DEFAULT_SETTINGS, type KubeSimSettings } from '../../../src/extension/settings';
import type { RemoteClusterHost } from '../../../src/extension/engine/remote-host';

// The bundle npm test builds first (scripts/build.mjs): the session starts it as its worker.
const WORKER = join(__dirname, '../../../dist/engine-worker.mjs');
const WEB = readFileSync(join(__dirname, '../../../examples/web.yaml'), 'utf8');

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function running(host: RemoteClusterHost): string[] {
  return host.view
    .list('pods')
    .filter((p) => p.row.status === 'Running')
    .map((p) => `${p.object.metadata.name} ${p.object.metadata.uid}`)
    .sort();
}

describe('the editor session: the cluster in its engine worker', function () {
  // The out-of-heap case grows a cluster until its 48 MB worker dies: 3.6 minutes at a load of 12
  // on 2 cores (the tree's summaries keep the worker's outbox small, so it dies later than with
  // whole objects).
  this.timeout(360_000);
  let dir: string;
  let settings: KubeSimSettings;
  const said: { report: string[]; warn: string[] } = { report: [], warn: [] };
  const deps = (): SessionDeps => ({
    workerFile: WORKER,
    settings: () => settings,
    file: join(dir, 'cluster.json'),
    mirror: () => undefined,
    report: (m) => void said.report.push(m),
    warn: (m) => void said.warn.push(m),
  });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubesim-session-'));
    settings = { ...DEFAULT_SETTINGS, nodes: { ...DEFAULT_SETTINGS.nodes, count: 2 }, speed: 100 };
    said.report = [];
    said.warn = [];
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('saves in the worker and comes back whole: the tree has every pod as soon as the start resolves', async () => {
    const first = new ClusterSession(deps());
    assert.equal(await first.hasSaved(), false);
    const host = await first.get();
    await host.apply('web.yaml', WEB);
    await until(() => running(host).length === 3, 'three running pods');
    const before = running(host);
    await first.dispose();
    assert.equal(first.current, undefined);
    assert.ok(existsSync(join(dir, 'cluster.json')) && existsSync(join(dir, 'cluster.trace.jsonl')), 'the worker wrote the save and its trace');

    const second = new ClusterSession(deps());
    assert.equal(await second.hasSaved(), true);
    const again = await second.get();
    try {
      assert.deepEqual(running(again), before, 'the same pods (names, uids), listed before the start resolved');
      const trace = await again.traceRecords();
      assert.ok(trace.some((r) => r.type === 'api.request' && (r as unknown as { verb: string }).verb === 'patch'), 'the apply is in the restored trace');
      // Reset: a new worker, a new cluster, the save removed and written anew.
      const fresh = await second.reset();
      assert.notEqual(fresh, again);
      assert.equal(fresh.view.count('pods') - fresh.view.list('pods').filter((p) => p.object.metadata.namespace === 'kube-system').length, 0, 'no workload pods after a reset');
      assert.equal(again.crashReason, undefined, 'the old worker stopped in order');
    } finally {
      await second.dispose();
    }
    assert.deepEqual(said, { report: [], warn: [] });
  });

  it('a worker that runs out of heap is reported in words, the extension host goes on, and the next use starts again from the save', async () => {
    const session = new ClusterSession(deps());
    const changes: (RemoteClusterHost | undefined)[] = [];
    session.onDidChangeCluster((h) => void changes.push(h));
    const host = await session.get();
    await host.apply('web.yaml', WEB);
    await until(() => running(host).length === 3, 'three running pods');
    // Too small a heap for 3,000 more pods: the worker dies of it.
    settings = { ...settings, engine: { maxHeapMB: 48 } };
    await session.reset();
    const small = session.current!;
    const applied = small.apply('big.yaml', WEB.replace('replicas: 3', 'replicas: 3000')).then(
      () => 'applied',
      (err: Error) => err.message,
    );
    await until(() => said.report.length > 0, 'the crash to be reported');
    assert.match(said.report[0]!, /^KubeSim: the simulated cluster ran out of memory: its engine may use at most 48 MB \(the kubesim\.engine\.maxHeapMB setting\)\. Reset the cluster \(or raise the setting\) to go on\.$/);
    await until(() => session.current === undefined, 'the dead cluster to go');
    assert.equal(changes.at(-1), undefined, 'the tree and the panel are told it went');
    assert.match(await applied, /ran out of memory|applied/);
    // Raised again: the next use starts a new worker, from the last save.
    settings = { ...settings, engine: { maxHeapMB: 2048 } };
    const again = await session.get();
    try {
      assert.equal(again.crashReason, undefined);
      assert.deepEqual(again.nodeNames(), ['kubesim-control-plane', 'kubesim-worker', 'kubesim-worker2']);
      assert.equal((await again.summary()).nodes.total, 3);
    } finally {
      await session.dispose();
    }
  });
});
