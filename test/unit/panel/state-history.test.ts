import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubeObject } from '../../../src/engine/api/types';
import { SharedInformerFactory } from '../../../src/engine/client/informer';
import { createCluster, type Cluster } from '../../../src/engine/cluster';
import { applyManifestText } from '../../../src/engine/kubectl/apply';
import type { RevisionRecord } from '../../../src/engine/trace/revision';
import { readDetails } from '../../../src/extension/panel/details';
import { StateLog } from '../../../src/extension/panel/state-log';
import { nodeView, podView } from '../../../src/extension/panel/state-views';
import type { StateChange } from '../../../src/protocol/cluster-state';
import { StateHistory, type ClusterState } from '../../../webview/model/history';
import { layoutMap, NO_FILTERS } from '../../../webview/model/map-layout';
import { KEYFRAME } from '../../../webview/model/pod-table';

const WEB = readFileSync(join(__dirname, '../../../examples/web.yaml'), 'utf8');
const TOO_BIG = `apiVersion: v1
kind: Pod
metadata: {name: big, namespace: default}
spec:
  containers:
  - name: c
    image: nginx:1.27
    resources: {requests: {cpu: "64"}}
`;

async function startLog(cluster: Cluster, capacity?: number): Promise<{ log: StateLog; factory: SharedInformerFactory }> {
  const factory = new SharedInformerFactory({ client: cluster.client(), clock: cluster.clock, random: cluster.random.fork('state-log-test'), component: 'state-log-test' });
  const log = new StateLog({ factory, trace: cluster.trace, clock: cluster.clock, machines: cluster.nodes().map((node) => ({ node, running: true })), capacity });
  factory.start();
  await cluster.advance(0);
  return { log, factory };
}

function historyOf(log: StateLog): StateHistory {
  const snap = log.snapshot();
  const h = new StateHistory();
  h.reset(snap.heldFrom, snap.heldFromTime, snap.capacity);
  h.add(snap.changes, snap.heldFrom, snap.heldFromTime);
  return h;
}

/** What the API server answers for a LIST at exactly `revision` (resourceVersionMatch=Exact). */
async function listAt(cluster: Cluster, resource: 'pods' | 'nodes', revision: number): Promise<KubeObject[]> {
  const res = await cluster.client().request({ verb: 'list', group: '', version: 'v1', resource, options: { resourceVersion: String(revision), resourceVersionMatch: 'Exact' } });
  assert.equal(res.code, 200, JSON.stringify(res.body));
  return res.body.items as unknown as KubeObject[];
}

function drawn(state: ClusterState): { pods: string[]; nodes: string[] } {
  return {
    pods: [...state.pods.values()].map((p) => `${p.namespace}/${p.name} ${p.node ?? '-'} ${p.status} ${p.ready} rv=${p.rv}`).sort(),
    nodes: [...state.nodes.values()].map((n) => `${n.name} ${n.status} rv=${n.rv}`).sort(),
  };
}

async function stored(cluster: Cluster, revision: number): Promise<{ pods: string[]; nodes: string[] }> {
  const now = cluster.clock.now();
  return {
    pods: (await listAt(cluster, 'pods', revision)).map((o) => podView(o, now)).map((p) => `${p.namespace}/${p.name} ${p.node ?? '-'} ${p.status} ${p.ready} rv=${p.rv}`).sort(),
    nodes: (await listAt(cluster, 'nodes', revision)).map(nodeView).map((n) => `${n.name} ${n.status} rv=${n.rv}`).sort(),
  };
}

describe('panel cluster state: the revision log and the state at a revision', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let log: StateLog;
  let factory: SharedInformerFactory;

  before(async () => {
    cluster = await createCluster({ seed: 'state-history' });
    ({ log, factory } = await startLog(cluster));
    await applyManifestText(cluster.client(), 'web.yaml', WEB);
    await applyManifestText(cluster.client(), 'big.yaml', TOO_BIG);
    await cluster.advance(30_000);
  });

  after(async () => {
    log.stop();
    factory.shutdown();
    await cluster.close();
  });

  it('logs every revision of the drawn kinds that etcd wrote, at that revision', () => {
    const snap = log.snapshot();
    const logged = new Set(snap.changes.filter((c) => c.op !== 'machine').map((c) => `${c.rev} ${c.op === 'delete' ? 'delete' : 'put'}`));
    const drawnResources = new Set(['/pods', '/nodes', 'apps/deployments', 'apps/replicasets', '/services', 'discovery.k8s.io/endpointslices']);
    const revisions = cluster.trace.records().filter((r): r is RevisionRecord => r.type === 'store.revision' && drawnResources.has(`${r.group}/${r.resource}`) && r.revision > snap.heldFrom);
    assert.ok(revisions.length > 30, `the apply wrote revisions (${revisions.length})`);
    for (const r of revisions) assert.ok(logged.has(`${r.revision} ${r.operation === 'delete' ? 'delete' : 'put'}`), `revision ${r.revision} (${r.operation} ${r.key}) is in the log`);
    const revs = snap.changes.map((c) => c.rev);
    assert.deepEqual(revs, [...revs].sort((a, b) => a - b), 'in revision order');
  });

  it('the state at every revision held is what a LIST at that exact resourceVersion returns', async () => {
    const history = historyOf(log);
    const from = history.heldFrom;
    const to = history.latestRevision;
    assert.ok(to > from + 30);
    // Every revision, forwards then a few backwards jumps: the cursor moves both ways.
    const order = [...Array.from({ length: to - from + 1 }, (_, i) => from + i), to - 3, from + 5, Math.floor((from + to) / 2), from];
    for (const rev of order) {
      const state = history.at(rev);
      assert.ok(state.held, `revision ${rev} is held`);
      assert.deepEqual(drawn(state), await stored(cluster, rev), `revision ${rev}`);
    }
  });

  it('shows the pending pod without a node, and a pod bound to a node once the scheduler wrote the binding', () => {
    const history = historyOf(log);
    const s = history.at(history.latestRevision);
    assert.ok(s.held);
    const big = s.pods.get('default/big');
    assert.equal(big?.status, 'Pending');
    assert.equal(big?.node, undefined);
    assert.deepEqual(big?.requests, { milliCPU: 64_000, memory: 0 });
    const web = [...s.pods.values()].filter((p) => p.name.startsWith('web-'));
    assert.equal(web.length, 3);
    for (const p of web) {
      assert.match(p.node ?? '', /^kubesim-worker/);
      assert.equal(p.status, 'Running');
      assert.equal(p.readyCondition, true);
      assert.deepEqual(p.requests, { milliCPU: 100, memory: 128 * 1024 * 1024 });
      assert.equal(p.owner?.kind, 'ReplicaSet');
    }
    assert.equal(s.deployments.get('default/web')?.readyReplicas, 3);
    assert.equal(s.services.get('default/web')?.selector?.app, 'web');
    const slice = [...s.endpointSlices.values()].find((e) => e.service === 'web');
    assert.equal(slice?.endpoints.filter((e) => e.ready).length, 3);
    assert.equal(s.nodes.get('kubesim-control-plane')?.taints[0]?.key, 'node-role.kubernetes.io/control-plane');
    assert.equal(s.machines.get('kubesim-worker'), true);
    // The state is the cursor's: read at another revision, it shows that one.
    const before = history.at(history.heldFrom);
    assert.ok(before.held);
    assert.equal([...before.pods.values()].filter((p) => p.name.startsWith('web-')).length, 0, 'before the apply there were no web pods');
  });

  it('the details view reads the object, its conditions, its events and its logs as kubectl would', async () => {
    const client = cluster.client();
    const big = await readDetails(client, cluster.logs, { type: 'getDetails', requestId: 1, kind: 'Pod', namespace: 'default', name: 'big' });
    assert.equal(big.object.state, 'found');
    assert.ok(big.object.state === 'found' && /name: big/.test(big.object.yaml) && !/managedFields/.test(big.object.yaml));
    assert.equal(big.conditions?.find((c) => c.type === 'PodScheduled')?.reason, 'Unschedulable');
    assert.ok(big.events.state === 'found' && big.events.events.some((e) => e.reason === 'FailedScheduling' && e.type === 'Warning' && /Insufficient cpu/.test(e.message)), JSON.stringify(big.events));
    assert.deepEqual(big.logs, [{ container: 'c', error: 'not scheduled to a node yet: no kubelet holds a log' }]);
    const history = historyOf(log);
    const s = history.at(history.latestRevision);
    assert.ok(s.held);
    const web = [...s.pods.values()].find((p) => p.name.startsWith('web-'))!;
    const running = await readDetails(client, cluster.logs, { type: 'getDetails', requestId: 2, kind: 'Pod', namespace: 'default', name: web.name });
    assert.equal(running.logs?.length, 1);
    assert.equal(running.logs?.[0]?.container, 'nginx');
    assert.equal(running.logs?.[0]?.error, undefined);
    const before = await readDetails(client, cluster.logs, { type: 'getDetails', requestId: 3, kind: 'Pod', namespace: 'default', name: web.name, revision: history.heldFrom });
    assert.equal(before.object.state, 'absent', 'the pod did not exist before the apply');
    const node = await readDetails(client, cluster.logs, { type: 'getDetails', requestId: 4, kind: 'Node', name: 'kubesim-worker' });
    assert.equal(node.conditions?.find((c) => c.type === 'Ready')?.status, 'True');
    assert.equal(node.logs, undefined);
  });

  it('says a revision before the history is not held', () => {
    const history = historyOf(log);
    const s = history.at(history.heldFrom - 1);
    assert.equal(s.held, false);
    assert.equal(!s.held && s.reason, 'before');
  });

  it('steps change by change and maps virtual time to revisions', () => {
    const history = historyOf(log);
    const from = history.heldFrom;
    const next = history.step(from, 1)!;
    assert.ok(next > from);
    assert.equal(history.step(next, -1), Math.max(from, history.step(next, -1)!));
    assert.equal(history.step(history.latestRevision, 1), undefined, 'nothing after the newest change');
    assert.equal(history.revisionAtTime(history.latestTime + 1000), history.latestRevision);
    assert.equal(history.revisionAtTime(0), from);
    let marks = 0;
    history.forEachMark(() => marks++);
    assert.ok(marks > 30);
  });

  it('records when a node\'s kubelet stops and starts', async () => {
    cluster.stopNode('kubesim-worker2');
    await cluster.advance(1000);
    const stopped = historyOf(log);
    const s = stopped.at(stopped.latestRevision);
    assert.ok(s.held);
    assert.equal(s.machines.get('kubesim-worker2'), false);
    await cluster.startNode('kubesim-worker2');
    await cluster.advance(1000);
    const started = historyOf(log);
    const t = started.at(started.latestRevision);
    assert.ok(t.held);
    assert.equal(t.machines.get('kubesim-worker2'), true);
  });

  it('stays bounded: folded history starts later, and the state there is still exact', async () => {
    const small = await startLog(cluster, 20);
    try {
      await cluster.client().request({ verb: 'patch', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default', name: 'web', patchType: 'merge', body: { text: '{"spec":{"replicas":5}}', contentType: 'application/json' } });
      await cluster.advance(20_000);
      assert.equal(small.log.size, 20);
      const history = historyOf(small.log);
      assert.ok(history.heldFrom > log.snapshot().heldFrom);
      const s = history.at(history.heldFrom);
      assert.ok(s.held);
      assert.deepEqual(drawn(s), await stored(cluster, history.heldFrom));
      assert.equal(history.at(history.heldFrom - 1).held, false);
    } finally {
      small.log.stop();
      small.factory.shutdown();
    }
  });
});

describe('panel cluster state: the webview history on its own', () => {
  const pod = (name: string, rv: number, status: string, node?: string): StateChange => ({
    op: 'put',
    rev: rv,
    time: rv * 10,
    view: { kind: 'Pod', uid: name, name, namespace: 'default', rv, labels: {}, deleting: false, phase: status, status, ready: '0/1', readyCondition: false, restarts: 0, requests: { milliCPU: 0, memory: 0 }, containers: ['c'], ...(node ? { node } : {}) },
  });
  const names = (s: ReturnType<StateHistory['at']>) => (s.held ? [...s.pods.values()].map((p) => `${p.name}:${p.status}@${p.node ?? '-'}`).sort() : s.reason);

  it('jumps and steps give the same states as a fresh history (random walk)', () => {
    const changes: StateChange[] = [];
    let rev = 10;
    for (let i = 0; i < 400; i++) {
      const n = `p${i % 37}`;
      rev += 1 + (i % 3);
      if (i % 11 === 5) changes.push({ op: 'delete', rev, time: rev * 10, kind: 'Pod', namespace: 'default', name: n });
      else changes.push(pod(n, rev, i % 2 ? 'Running' : 'Pending', i % 2 ? `node-${i % 4}` : undefined));
    }
    const walker = new StateHistory();
    walker.reset(10, 100, 100_000);
    walker.add(changes);
    let seed = 7;
    for (let k = 0; k < 300; k++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const r = 10 + (seed % (rev - 5));
      const fresh = new StateHistory();
      fresh.reset(10, 100, 100_000);
      fresh.add(changes);
      assert.deepEqual(names(walker.at(r)), names(fresh.at(r)), `revision ${r}`);
    }
  });

  it('the pods\' typed arrays and keyframes give every revision\'s pods and map, jumping anywhere (as a state built by hand lays them out)', () => {
    const changes: StateChange[] = [];
    let rev = 10;
    const node = (i: number): StateChange => ({ op: 'put', rev: ++rev, time: rev * 10, view: { kind: 'Node', uid: `n${i}`, name: `node-${i}`, rv: rev, labels: {}, deleting: false, status: 'Ready', ready: { type: 'Ready', status: 'True' }, unschedulable: false, taints: [], zone: `z${i % 2}`, roles: [], allocatable: { milliCPU: 4000, memory: 2 ** 34, pods: 110 } } });
    for (let i = 0; i < 6; i++) changes.push(node(i));
    const rows = 3 * KEYFRAME + 500;
    for (let i = 0; i < rows; i++) {
      const n = `p${(i * 7919) % 301}`;
      rev += 1 + (i % 2);
      if (i % 13 === 6) changes.push({ op: 'delete', rev, time: rev * 10, kind: 'Pod', namespace: 'default', name: n });
      else {
        const c = pod(n, rev, ['Pending', 'ContainerCreating', 'Running'][i % 3]!, i % 4 ? `node-${i % 6}` : undefined);
        if (c.op === 'put' && c.view.kind === 'Pod') Object.assign(c.view, { owner: { kind: 'ReplicaSet', name: `rs-${i % 5}`, uid: `rs-${i % 5}` }, requests: { milliCPU: 100 + (i % 3), memory: 1000 } });
        changes.push(c);
      }
    }
    const walker = new StateHistory();
    walker.reset(10, 100, 1_000_000);
    walker.add(changes);
    const options = { aspect: 2, viewportWidth: 1400 };
    const picture = (s: ClusterState) => {
      const m = layoutMap(s, NO_FILTERS, options);
      return { nodes: m.nodes.map((b) => `${b.name} ${b.cpu.requested} ${b.pods.requested} ${b.cells.map((c) => `${c.key}:${c.tone}:${c.group}`).join(',')}`), queue: m.queue.cells.map((c) => c.key), tones: m.toneCounts, owners: m.owners };
    };
    let seed = 11;
    for (let k = 0; k < 120; k++) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      // Far jumps (keyframes), and steps back and forth near the last one.
      const r = k % 3 === 2 ? rev - (seed % 50) : 10 + (seed % (rev - 5));
      const s = walker.at(r);
      assert.ok(s.held);
      // Each pod's last change at or before r, read off the changes themselves.
      const last = new Map<string, StateChange>();
      for (const c of changes) if (c.rev <= r && (c.op === 'delete' ? c.kind === 'Pod' : c.op === 'put' && c.view.kind === 'Pod')) last.set(c.op === 'delete' ? c.name : c.op === 'put' ? c.view.name : '', c);
      const expected = [...last.values()].flatMap((c) => (c.op === 'put' && c.view.kind === 'Pod' ? [`${c.view.name}:${c.view.status}@${c.view.node ?? '-'}`] : [])).sort();
      assert.deepEqual(names(s), expected, `revision ${r}`);
      // The same pods in a state built by hand (no table) make the same map.
      const byHand: ClusterState = { held: true, revision: r, nodes: s.nodes, pods: new Map(s.pods), deployments: s.deployments, replicaSets: s.replicaSets, services: s.services, endpointSlices: s.endpointSlices, machines: s.machines };
      assert.deepEqual(picture(s), picture(byHand), `map at revision ${r}`);
    }
  });

  it('takes changes slightly out of order and keeps each object\'s versions in revision order', () => {
    const h = new StateHistory();
    h.reset(1, 0, 1000);
    h.add([pod('a', 5, 'Pending'), pod('b', 7, 'Pending')]);
    h.at(7);
    h.add([pod('a', 6, 'Running', 'n1'), pod('b', 8, 'Running', 'n2')]);
    assert.deepEqual(names(h.at(6)), ['a:Running@n1']);
    assert.deepEqual(names(h.at(7)), ['a:Running@n1', 'b:Pending@-']);
    assert.deepEqual(names(h.at(5)), ['a:Pending@-']);
    assert.deepEqual(names(h.at(8)), ['a:Running@n1', 'b:Running@n2']);
  });

  it('Step to next change passes over a Node write that changed nothing drawn (a status heartbeat)', () => {
    const nodeAt = (rev: number, status: string): StateChange => ({ op: 'put', rev, time: rev * 10, view: { kind: 'Node', uid: 'n', name: 'n1', rv: rev, labels: {}, deleting: false, status, ready: { type: 'Ready', status: status === 'Ready' ? 'True' : 'False' }, unschedulable: false, taints: [], roles: [], allocatable: { milliCPU: 1000, memory: 1, pods: 10 } } });
    const h = new StateHistory();
    h.reset(1, 0, 1000);
    h.add([nodeAt(2, 'Ready'), pod('a', 3, 'Pending'), nodeAt(4, 'Ready'), nodeAt(5, 'Ready'), pod('a', 6, 'Running', 'n1'), nodeAt(7, 'NotReady'), nodeAt(8, 'NotReady')]);
    assert.equal(h.step(3, 1), 6, 'the heartbeats at 4 and 5 are passed over');
    assert.equal(h.step(6, 1), 7, 'a Node that turned NotReady is a change');
    assert.equal(h.step(7, 1), undefined);
    assert.equal(h.step(6, -1), 3);
    assert.equal(h.step(3, 2), 7);
  });

  it('folds to its capacity and to the host\'s heldFrom', () => {
    const h = new StateHistory();
    h.reset(1, 0, 10);
    const changes = Array.from({ length: 30 }, (_, i) => pod(`p${i % 3}`, i + 2, `S${i}`));
    h.add(changes);
    assert.ok(h.size <= 11 + 3, `held ${h.size}`);
    assert.equal(h.at(h.heldFrom - 1).held, false);
    assert.deepEqual(names(h.at(31)), ['p0:S27@-', 'p1:S28@-', 'p2:S29@-']);
    h.add([], 30, 300);
    assert.equal(h.heldFrom, 30);
    assert.deepEqual(names(h.at(30)), ['p0:S27@-', 'p1:S28@-', 'p2:S26@-'].sort());
  });
});
