import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SharedInformerFactory } from '../../../src/engine/client/informer';
import { createCluster, type Cluster } from '../../../src/engine/cluster';
import { applyManifestText } from '../../../src/engine/kubectl/apply';
import { StateLog } from '../../../src/extension/panel/state-log';
import type { DeploymentView, EndpointSliceView, PodView, ReplicaSetView, ServiceView } from '../../../src/protocol/cluster-state';
import { buildGraph, endpointCondition, rolloutStatus, type GraphModel } from '../../../webview/model/graph';
import ELK from 'elkjs/lib/elk.bundled.js';
import { elkGraph, layoutGraph, layoutSignature, useLayouter } from '../../../webview/model/graph-layout';
import { StateHistory, type ClusterState } from '../../../webview/model/history';

// The panel runs ELK in a Web Worker (webview/ui/elk-worker.ts); here it runs on the test's thread.
const elkjs = new ELK();
useLayouter({ thread: 'main', layout: (g) => elkjs.layout(g) });

const WEB = readFileSync(join(__dirname, '../../../examples/web.yaml'), 'utf8');
const WEB_V2 = readFileSync(join(__dirname, '../../../examples/web-v2.yaml'), 'utf8');

const base = { namespace: 'default', rv: 1, labels: {}, deleting: false };

function dep(extra: Partial<DeploymentView> = {}): DeploymentView {
  return { ...base, kind: 'Deployment', uid: 'd', name: 'web', replicas: 3, strategy: 'RollingUpdate', revision: 2, selector: { matchLabels: { app: 'web' } }, generation: 2, observedGeneration: 2, statusReplicas: 4, updatedReplicas: 1, readyReplicas: 3, availableReplicas: 3, unavailableReplicas: 1, conditions: [], ...extra };
}
function rs(name: string, revision: number, replicas: number, extra: Partial<ReplicaSetView> = {}): ReplicaSetView {
  return { ...base, kind: 'ReplicaSet', uid: `rs-${name}`, name, revision, replicas, selector: {}, statusReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas, owner: { kind: 'Deployment', name: 'web', uid: 'd' }, ...extra };
}
function pod(name: string, owner: string, extra: Partial<PodView> = {}): PodView {
  return { ...base, kind: 'Pod', uid: `pod-${name}`, name, labels: { app: 'web' }, owner: { kind: 'ReplicaSet', name: owner, uid: `rs-${owner}` }, phase: 'Running', status: 'Running', ready: '1/1', readyCondition: true, restarts: 0, requests: { milliCPU: 100, memory: 0 }, containers: ['c'], node: 'n1', ip: `10.0.0.${name.length}`, ...extra };
}
function svc(extra: Partial<ServiceView> = {}): ServiceView {
  return { ...base, kind: 'Service', uid: 's', name: 'web', type: 'ClusterIP', clusterIP: '10.96.0.10', selector: { app: 'web' }, ports: [{ port: 80, targetPort: 'http', protocol: 'TCP' }], ...extra };
}
function slice(endpoints: EndpointSliceView['endpoints']): EndpointSliceView {
  return { ...base, kind: 'EndpointSlice', uid: 'sl', name: 'web-abc', service: 'web', owner: { kind: 'Service', name: 'web', uid: 's' }, addressType: 'IPv4', endpoints, ports: [{ name: 'http', port: 80, protocol: 'TCP' }] };
}
function stateOf(objs: { deployments?: DeploymentView[]; replicaSets?: ReplicaSetView[]; pods?: PodView[]; services?: ServiceView[]; slices?: EndpointSliceView[] }): ClusterState {
  const m = <T extends { namespace?: string; name: string }>(xs: T[] = []) => new Map(xs.map((x) => [`${x.namespace}/${x.name}`, x]));
  return { held: true, revision: 42, nodes: new Map(), pods: m(objs.pods), deployments: m(objs.deployments), replicaSets: m(objs.replicaSets), services: m(objs.services), endpointSlices: m(objs.slices), machines: new Map() };
}
const ep = (pod: string, ready: boolean, extra: Partial<EndpointSliceView['endpoints'][number]> = {}) => ({ addresses: [`10.0.0.${pod.length}`], ready, serving: ready, terminating: false, targetRef: { kind: 'Pod', namespace: 'default', name: pod, uid: `pod-${pod}` }, ...extra });

/** The mid-rollout picture: old RS web-1 (rev 1) scaling down with a Terminating pod, new RS web-2 (rev 2) scaling up. */
function midRollout(): ClusterState {
  return stateOf({
    deployments: [dep()],
    replicaSets: [rs('web-1', 1, 2, { statusReplicas: 3, readyReplicas: 3 }), rs('web-2', 2, 2, { statusReplicas: 2, readyReplicas: 1 })],
    pods: [
      pod('old-a', 'web-1'),
      pod('old-b', 'web-1'),
      pod('old-c', 'web-1', { deleting: true, status: 'Terminating' }),
      pod('new-a', 'web-2'),
      pod('new-bb', 'web-2', { status: 'ContainerCreating', phase: 'Pending', readyCondition: false, ready: '0/1', ip: undefined }),
    ],
    services: [svc()],
    slices: [slice([ep('old-a', true), ep('old-b', true), ep('old-c', false, { serving: true, terminating: true }), ep('new-a', true)])],
  });
}

const ids = (g: GraphModel, kind: string) => g.nodes.filter((n) => n.kind === kind).sort((a, b) => a.order - b.order).map((n) => n.name);

describe('panel object graph model', () => {
  it('ties Deployment -> ReplicaSets -> Pods and Service -> EndpointSlice -> endpoints -> Pods with owner, routing and selector edges', () => {
    const g = buildGraph(midRollout(), { namespace: '' });
    const edges = g.edges.map((e) => `${e.type} ${e.from.split('/').pop()}${e.fromPort ? `#${e.fromPort.split('#')[1]}` : ''} -> ${e.to.split('/').pop()}${e.condition ? ` (${e.condition})` : ''}`).sort();
    assert.deepEqual(edges, [
      'owner web -> web-1',
      'owner web -> web-2',
      'owner web -> web-abc',
      'owner web-1 -> old-a',
      'owner web-1 -> old-b',
      'owner web-1 -> old-c',
      'owner web-2 -> new-a',
      'owner web-2 -> new-bb',
      'routing web-abc#0 -> old-a (ready)',
      'routing web-abc#1 -> old-b (ready)',
      'routing web-abc#2 -> old-c (terminating, serving)',
      'routing web-abc#3 -> new-a (ready)',
      // Selected by the Service, no endpoint yet (no IP): the selector edge.
      'selector web -> new-bb',
    ]);
  });

  it('puts the new ReplicaSet above the old, each ReplicaSet\u2019s pods under it, and says which is which', () => {
    const g = buildGraph(midRollout(), { namespace: '' });
    assert.deepEqual(ids(g, 'ReplicaSet'), ['web-2', 'web-1']);
    const [newRs, oldRs] = ['web-2', 'web-1'].map((n) => g.byId.get(`ReplicaSet/default/${n}`)!);
    assert.equal(newRs!.role, 'new');
    assert.equal(oldRs!.role, 'old');
    assert.match(newRs!.lines[0]!, /^revision 2 · new/);
    assert.equal(oldRs!.status, 'scaling down');
    assert.deepEqual(newRs!.bars.map((b) => `${b.label} ${b.value}/${b.of}`), ['desired 2/4', 'current 2/4', 'ready 1/4']);
    assert.deepEqual(ids(g, 'Pod').slice(0, 2).sort(), ['new-a', 'new-bb']);
    const term = g.byId.get('Pod/default/old-c')!;
    assert.equal(term.tone, 'terminating');
    assert.equal(term.color, 'purple');
    const d = g.byId.get('Deployment/default/web')!;
    assert.equal(d.rollingOut, true);
    assert.equal(d.color, 'blue');
    assert.match(d.detail, /Waiting for deployment "web" rollout to finish: 1 out of 3 new replicas have been updated\.\.\./);
  });

  it('draws endpoint rows with their conditions, beside the pods they route to', () => {
    const g = buildGraph(midRollout(), { namespace: '' });
    const sl = g.byId.get('EndpointSlice/default/web-abc')!;
    assert.deepEqual(sl.endpoints!.map((r) => `${r.target?.split('/').pop()} ${r.condition} ${r.color}`), ['new-a ready green', 'old-a ready green', 'old-b ready green', 'old-c terminating, serving purple']);
    assert.equal(sl.status, '3/4 ready');
    assert.equal(g.byId.get('Service/default/web')!.status, 'has ready endpoints');
  });

  it('reads endpoint conditions as EndpointSlice consumers do (unset ready is ready, unset serving follows ready)', () => {
    assert.equal(endpointCondition({ addresses: ['a'] }).condition, 'ready');
    assert.equal(endpointCondition({ addresses: ['a'], ready: false }).condition, 'not ready');
    assert.equal(endpointCondition({ addresses: ['a'], ready: false, serving: false, terminating: true }).condition, 'terminating');
  });

  it('says what kubectl rollout status says', () => {
    assert.equal(rolloutStatus(dep({ generation: 3 })).message, 'Waiting for deployment spec update to be observed...');
    assert.equal(rolloutStatus(dep({ updatedReplicas: 3, statusReplicas: 4 })).message, 'Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...');
    assert.equal(rolloutStatus(dep({ updatedReplicas: 3, statusReplicas: 3, availableReplicas: 2 })).message, 'Waiting for deployment "web" rollout to finish: 2 of 3 updated replicas are available...');
    assert.equal(rolloutStatus(dep({ updatedReplicas: 3, statusReplicas: 3, availableReplicas: 3 })).message, 'deployment "web" successfully rolled out');
    const stuck = rolloutStatus(dep({ conditions: [{ type: 'Progressing', status: 'False', reason: 'ProgressDeadlineExceeded' }] }));
    assert.deepEqual(stuck, { done: false, failed: true, message: 'deployment "web" exceeded its progress deadline' });
  });

  it('filters by namespace and lists the namespaces', () => {
    const s = midRollout();
    const other = { ...svc(), namespace: 'shop', uid: 's2' };
    (s.services as Map<string, ServiceView>).set('shop/web', other);
    assert.deepEqual(buildGraph(s, { namespace: '' }).namespaces, ['default', 'shop']);
    const g = buildGraph(s, { namespace: 'shop' });
    assert.deepEqual(g.nodes.map((n) => n.id), ['Service/shop/web']);
    assert.equal(g.byId.get('Service/shop/web')!.status, 'no ready endpoints');
  });

  it('keeps the layout\u2019s inputs free of status: a status change keeps the signature, a new pod changes it', () => {
    const a = buildGraph(midRollout(), { namespace: '' });
    const s = midRollout();
    (s.pods as Map<string, PodView>).set('default/new-bb', pod('new-bb', 'web-2', { ip: undefined }));
    assert.equal(layoutSignature(buildGraph(s, { namespace: '' })), layoutSignature(a), 'Running and Ready now, same boxes and edges');
    (s.pods as Map<string, PodView>).set('default/new-c', pod('new-c', 'web-2'));
    assert.notEqual(layoutSignature(buildGraph(s, { namespace: '' })), layoutSignature(a));
  });

  it('gives ELK every layout edge left to right, and the slice its endpoints as fixed ports on its left', () => {
    const g = buildGraph(midRollout(), { namespace: '' });
    const elk = elkGraph(g);
    const column = new Map(g.nodes.map((n) => [n.id, n.column]));
    for (const n of g.nodes) for (const r of n.endpoints ?? []) column.set(r.id, n.column);
    for (const e of elk.edges ?? []) assert.ok(column.get(e.sources[0]!)! < column.get(e.targets[0]!)!, `${e.id} runs left to right`);
    const sl = elk.children!.find((c) => c.id === 'EndpointSlice/default/web-abc')!;
    assert.equal(sl.ports!.length, 4);
    assert.equal(sl.layoutOptions!['elk.portConstraints'], 'FIXED_POS');
  });

  it('lays the columns out left to right with the new ReplicaSet above the old, and the same structure the same way', async () => {
    const g = buildGraph(midRollout(), { namespace: '' });
    const l = await layoutGraph(g);
    const at = (id: string) => l.positions.get(id)!;
    const xs = ['Deployment/default/web', 'ReplicaSet/default/web-2', 'Pod/default/new-a', 'EndpointSlice/default/web-abc', 'Service/default/web'].map((id) => at(id).x);
    assert.deepEqual(xs, [...xs].sort((a, b) => a - b), 'columns in order');
    assert.ok(at('ReplicaSet/default/web-2').y < at('ReplicaSet/default/web-1').y, 'new above old');
    const podYs = g.nodes.filter((n) => n.kind === 'Pod').sort((a, b) => a.order - b.order).map((n) => at(n.id).y);
    assert.deepEqual(podYs, [...podYs].sort((a, b) => a - b), 'pods in the model order');
    for (const n of g.nodes) for (const m of g.nodes) {
      if (n === m || n.column !== m.column) continue;
      const p = at(n.id);
      const q = at(m.id);
      assert.ok(p.y + p.h <= q.y || q.y + q.h <= p.y, `${n.id} and ${m.id} do not overlap`);
    }
    const again = await layoutGraph(buildGraph(midRollout(), { namespace: '' }));
    assert.equal(again, l, 'the cached layout for the same structure');
  });

  describe('a real rolling update, revision by revision', function () {
    this.timeout(180_000);
    let cluster: Cluster;
    let log: StateLog;
    let factory: SharedInformerFactory;
    let history: StateHistory;
    let beforeRollout: number;

    before(async () => {
      cluster = await createCluster({ seed: 'graph-model' });
      factory = new SharedInformerFactory({ client: cluster.client(), clock: cluster.clock, random: cluster.random.fork('graph-test'), component: 'graph-test' });
      log = new StateLog({ factory, trace: cluster.trace, clock: cluster.clock, machines: cluster.nodes().map((node) => ({ node, running: true })) });
      factory.start();
      await cluster.advance(0);
      await applyManifestText(cluster.client(), 'web.yaml', WEB);
      await cluster.settle();
      beforeRollout = log.snapshot().changes.at(-1)!.rev;
      await applyManifestText(cluster.client(), 'web-v2.yaml', WEB_V2);
      await cluster.settle();
      await cluster.advance(60_000);
      const snap = log.snapshot();
      history = new StateHistory();
      history.reset(snap.heldFrom, snap.heldFromTime, snap.capacity);
      history.add(snap.changes, snap.heldFrom, snap.heldFromTime);
    });

    after(async () => {
      log.stop();
      factory.shutdown();
      await cluster.close();
    });

    it('shows the old ReplicaSet moving below the new one, Terminating pods until they are gone, and ends with the new one alone serving', () => {
      const born = (kind: string, ns: string, name: string) => history.versionsOf(kind as 'Pod', ns, name)[0]?.rev;
      let sawBoth = false;
      let sawTerminating = false;
      let last: GraphModel | undefined;
      for (let rev = beforeRollout; rev <= history.latestRevision; rev++) {
        const s = history.at(rev);
        assert.ok(s.held);
        const g = buildGraph(s, { namespace: 'default', born });
        last = g;
        const sets = g.nodes.filter((n) => n.kind === 'ReplicaSet').sort((a, b) => a.order - b.order);
        if (sets.length === 2) {
          sawBoth = true;
          // Once the Deployment controller recorded revision 2, the revision-2 ReplicaSet is new and on top.
          const d = g.nodes.find((n) => n.kind === 'Deployment')!;
          if (d.revision === 2) assert.deepEqual(sets.map((n) => `${n.revision} ${n.role}`), ['2 new', '1 old'], `revision ${rev}`);
          else assert.equal(sets[1]!.role, 'new', `revision ${rev}: before the Deployment's revision moves, the old one is still the new one`);
        }
        const term = g.nodes.filter((n) => n.kind === 'Pod' && n.tone === 'terminating');
        if (term.length > 0) {
          sawTerminating = true;
          for (const t of term) assert.equal(g.edges.find((e) => e.type === 'owner' && e.to === t.id)?.from, sets.find((n) => n.role === 'old')?.id, 'a Terminating pod still hangs off the old ReplicaSet');
        }
      }
      assert.ok(sawBoth, 'both ReplicaSets during the rollout');
      assert.ok(sawTerminating, 'Terminating pods during the rollout');
      const end = last!;
      const sets = end.nodes.filter((n) => n.kind === 'ReplicaSet').sort((a, b) => a.order - b.order);
      assert.deepEqual(sets.map((n) => `${n.revision} ${n.role} ${n.status}`), ['2 new 3/3 ready', '1 old scaled down']);
      const pods = end.nodes.filter((n) => n.kind === 'Pod');
      assert.equal(pods.length, 3);
      assert.ok(pods.every((p) => p.tone === 'ready' && end.edges.some((e) => e.type === 'owner' && e.from === sets[0]!.id && e.to === p.id)));
      const routes = end.edges.filter((e) => e.type === 'routing');
      assert.deepEqual(routes.map((e) => e.to).sort(), pods.map((p) => p.id).sort(), 'the slice routes to the three new pods');
      assert.ok(routes.every((e) => e.condition === 'ready'));
      assert.match(end.byId.get('Deployment/default/web')!.detail, /successfully rolled out/);
    });
  });
});

describe('panel object graph: the other workload controllers, from a real cluster', function () {
  this.timeout(180_000);
  const MANIFEST = `
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent, namespace: default }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec: { containers: [{ name: agent, image: busybox:1.36 }] }
---
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db, namespace: default }
spec:
  replicas: 2
  serviceName: db
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec: { containers: [{ name: db, image: postgres:16 }] }
---
apiVersion: batch/v1
kind: Job
metadata: { name: once, namespace: default }
spec:
  template:
    spec: { restartPolicy: Never, containers: [{ name: once, image: busybox:1.36 }] }
---
apiVersion: batch/v1
kind: CronJob
metadata: { name: nightly, namespace: default }
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        spec: { restartPolicy: Never, containers: [{ name: run, image: busybox:1.36 }] }
`;
  let cluster: Cluster;
  let log: StateLog;
  let factory: SharedInformerFactory;
  let g: GraphModel;

  before(async () => {
    cluster = await createCluster({ seed: 'graph-owners' });
    factory = new SharedInformerFactory({ client: cluster.client(), clock: cluster.clock, random: cluster.random.fork('graph-test'), component: 'graph-test' });
    log = new StateLog({ factory, trace: cluster.trace, clock: cluster.clock, machines: cluster.nodes().map((node) => ({ node, running: true })) });
    factory.start();
    await cluster.advance(0);
    await applyManifestText(cluster.client(), 'owners.yaml', MANIFEST);
    await cluster.settle();
    // Past the CronJob's first minute: its controller creates a Job, whose pod runs.
    await cluster.advance(75_000);
    await cluster.settle();
    const snap = log.snapshot();
    const history = new StateHistory();
    history.reset(snap.heldFrom, snap.heldFromTime, snap.capacity);
    history.add(snap.changes, snap.heldFrom, snap.heldFromTime);
    const s = history.at(history.latestRevision);
    assert.ok(s.held);
    g = buildGraph(s, { namespace: 'default' });
  });

  after(async () => {
    log.stop();
    factory.shutdown();
    await cluster.close();
  });

  it('draws each pod under the DaemonSet, StatefulSet or Job that owns it, and the CronJob over its Job, with their controllers\' counts', () => {
    const owner = (podId: string) => g.edges.find((e) => e.type === 'owner' && e.to === podId)?.from.split('/')[0];
    const pods = g.nodes.filter((n) => n.kind === 'Pod');
    assert.ok(pods.length >= 4, pods.map((p) => p.name).join(', '));
    for (const p of pods) {
      const kind = p.name.startsWith('agent-') ? 'DaemonSet' : p.name.startsWith('db-') ? 'StatefulSet' : 'Job';
      assert.equal(owner(p.id), kind, `${p.name} hangs off its ${kind}`);
    }
    assert.equal(pods.filter((p) => p.name.startsWith('db-')).length, 2);
    const ds = g.byId.get('DaemonSet/default/agent')!;
    assert.equal(ds.column, 1);
    // The DaemonSet controller's counts: one pod on each node it may run on (not the tainted control plane).
    const agents = pods.filter((p) => p.name.startsWith('agent-')).length;
    assert.ok(agents >= 1 && agents < cluster.nodes().length + 1);
    assert.match(ds.detail, new RegExp(`^DaemonSet default/agent: ${agents} desired \\(nodes it should run on\\), ${agents} current, ${agents} up-to-date, \\d ready`));
    const cron = g.byId.get('CronJob/default/nightly')!;
    assert.equal(cron.column, 0);
    const cronJobs = g.edges.filter((e) => e.type === 'owner' && e.from === cron.id).map((e) => e.to);
    assert.equal(cronJobs.length, 1, 'the CronJob owns the Job it created');
    assert.match(cronJobs[0]!, /^Job\/default\/nightly-\d+$/);
    assert.equal(g.byId.get('StatefulSet/default/db')!.kind, 'StatefulSet');
    const once = g.byId.get('Job/default/once')!;
    assert.ok(['Running', 'Complete'].includes(once.status), once.status);
    const owners = g.nodes.filter((n) => n.column === 1).sort((a, b) => a.order - b.order).map((n) => n.id);
    const podOwners = pods.sort((a, b) => a.order - b.order).map((p) => g.edges.find((e) => e.type === 'owner' && e.to === p.id)!.from);
    const ranks = podOwners.map((o) => owners.indexOf(o));
    assert.deepEqual(ranks, [...ranks].sort((a, b) => a - b), 'pods in the order of their owners');
  });
});
