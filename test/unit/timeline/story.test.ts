/**
 * The story of an apply, built from real traces: a cluster runs in the test, the examples are
 * applied (a Deployment and its Service, a pod that cannot be scheduled, an image that cannot
 * be pulled, a rolling update, rejected and forbidden requests, an unchanged re-apply), and each
 * story is checked step by step: the phases in order, who acted, what state each step ended in,
 * where the story stops and why, and that every step is told from records of the request's
 * causal closure only.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { createCluster, type Cluster } from '../../../src/engine/cluster';
import { applyManifestText } from '../../../src/engine/kubectl/apply';
import { causalClosure, causeIndex } from '../../../src/engine/timeline/closure';
import { buildStory, type Story, type StoryStep } from '../../../src/engine/timeline/story';
import type { ApiRequestRecord } from '../../../src/engine/trace/apiserver';

const WEB = readFileSync('examples/web.yaml', 'utf8');

function deployment(name: string, replicas: number, cpu: string, image = 'nginx:1.27'): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: ${name}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  template:
    metadata: {labels: {app: ${name}}}
    spec:
      containers:
        - name: c
          image: ${image}
          resources: {requests: {cpu: "${cpu}"}}
`;
}

const BAD_IMAGE = `apiVersion: v1
kind: Pod
metadata: {name: unpullable}
spec:
  containers:
    - name: c
      image: example.invalid/app:1
`;

/** Applies a manifest as `user` and returns its write requests (the stories' roots), in order. */
async function apply(cluster: Cluster, yaml: string, user?: { username: string; groups: string[] }): Promise<ApiRequestRecord[]> {
  const first = cluster.trace.next;
  const client = user ? cluster.client({ username: user.username, uid: '', groups: user.groups, extra: {} }) : cluster.client();
  await applyManifestText(client, 'test.yaml', yaml);
  return cluster.trace.since(first).filter((r): r is ApiRequestRecord => r.type === 'api.request' && r.verb === 'patch' && r.cause === undefined);
}

function story(cluster: Cluster, root: ApiRequestRecord): Story {
  const records = cluster.trace.records();
  const children = causeIndex(records);
  const s = buildStory({ root, children, get: (id) => cluster.trace.get(id), kindOf: (g, r) => cluster.server.registry.byGroupResource(g, r)?.kind ?? r });
  // Never inferred: every record a step names is in the request's causal closure.
  const closure = new Set(causalClosure(root, children).map((r) => r.id));
  for (const step of s.steps) for (const id of step.records) assert.ok(closure.has(id), `${step.title}: record #${id} is in the closure of #${root.id}`);
  assert.equal(s.chain, closure.size);
  return s;
}

const phases = (steps: readonly StoryStep[]): string[] => steps.map((s) => s.phase);
const ofPod = (s: Story, pod: string): StoryStep[] => s.steps.filter((x) => x.pod === pod);

describe('the story of an apply (real traces)', function () {
  this.timeout(120_000);
  let cluster: Cluster;
  let web: ApiRequestRecord[];
  before(async () => {
    cluster = await createCluster({ seed: 'story', traceCapacity: 200_000 });
    await cluster.settle();
    web = await apply(cluster, WEB);
    await cluster.advance(30_000);
  });
  after(() => cluster.close());

  it('a Deployment: request, pipeline, etcd, controllers, writes, then per pod scheduler, kubelet, Ready; then Available', () => {
    const s = story(cluster, web[0]!);
    assert.equal(s.title, 'kubernetes-admin applied Deployment default/web');
    assert.equal(s.state, 'complete', s.outcome);
    // 4.484 s with no etcd latency; the latency model adds what every write of the chain costs (its
    // admission plugins read the watch cache, as upstream's listers: no ReadIndex round before a write).
    assert.match(s.outcome, /^Done in 4\.541s; 3 pods Ready\.$/);
    const spine = s.steps.filter((x) => !x.pod);
    assert.deepEqual(phases(spine).slice(0, 11), ['request', 'authentication', 'authorization', 'mutating-admission', 'validation', 'validating-admission', 'etcd', 'controller', 'written', 'controller', 'written']);
    const [deploy, rsWritten, rs, podsWritten] = spine.slice(7);
    assert.deepEqual([deploy!.title, deploy!.actor], ['Deployment controller', 'deployment-controller']);
    assert.match(deploy!.text, /^When Deployment web was created \(rev \d+\), the Deployment controller created ReplicaSet web-[a-z0-9]+/);
    assert.equal(rsWritten!.title, 'ReplicaSet written');
    assert.match(rs!.text, /the ReplicaSet controller created 3 Pods\.$/);
    assert.equal(podsWritten!.title, '3 Pods written');
    assert.equal(spine.at(-1)!.phase, 'available');
    assert.equal(s.pods.length, 3);
    for (const pod of s.pods) {
      assert.equal(pod.state, 'done');
      assert.ok(pod.node?.startsWith('kubesim-worker'), 'bound to a worker');
      const steps = ofPod(s, pod.pod).filter((x) => x.phase !== 'endpoints');
      assert.deepEqual(phases(steps), ['scheduler', 'kubelet', 'ready'], pod.pod);
      assert.match(steps[0]!.text, /^3 of 4 nodes fit: TaintToleration turned away kubesim-control-plane \(node\(s\) had untolerated taint\(s\)\)\. Top scores: kubesim-worker\d? \d+, .*; it chose kubesim-worker\d? and bound the pod to it\.$/);
      assert.match(steps[1]!.text, /^On kubesim-worker\d?, the kubelet admitted the pod, created the pod sandbox \(pod IP 10\.244\.\d+\.\d+\), pulled nginx:1\.27 in 3384ms, created nginx, started nginx and nginx passed its readiness probe\.$/);
      assert.equal(steps[1]!.actor, `kubelet/${pod.node}`);
    }
    assert.ok(s.steps.some((x) => x.phase === 'endpoints' && /updated EndpointSlice web-/.test(x.text)), 'the EndpointSlice is updated as pods come up');
  });

  it('a 409 Conflict followed by a successful sync is "retried", never a failure', () => {
    const s = story(cluster, web[0]!);
    const deploy = s.steps.find((x) => x.phase === 'controller')!;
    assert.equal(deploy.state, 'retried');
    assert.match(deploy.text, /got 409 Conflict \(the object had changed since it read it\), and a later sync succeeded\.$/);
    assert.ok(!s.steps.some((x) => x.state === 'stopped'));
  });

  it('a Service: its EndpointSlice and Endpoints are created', () => {
    const s = story(cluster, web[1]!);
    assert.equal(s.title, 'kubernetes-admin applied Service default/web');
    assert.equal(s.state, 'complete');
    const last = s.steps.at(-1)!;
    assert.equal(last.title, 'EndpointSlice created');
    assert.match(last.text, /^When Service web was created \(rev \d+\), the .* created (Endpoints web|EndpointSlice web-[a-z0-9]+); the .* created (Endpoints web|EndpointSlice web-[a-z0-9]+)\.$/);
  });

  it('a pod that fits no node is where its story stops, with the scheduler\'s reasons', async () => {
    const [root] = await apply(cluster, deployment('big', 4, '3'));
    await cluster.advance(30_000);
    const s = story(cluster, root!);
    assert.equal(s.state, 'stopped');
    const stuck = s.pods.filter((p) => p.state === 'stopped');
    assert.equal(stuck.length, 1, 'three pods fit (one per worker), the fourth does not');
    assert.deepEqual([stuck[0]!.phase, stuck[0]!.node], ['scheduler', undefined]);
    const step = ofPod(s, stuck[0]!.pod)[0]!;
    assert.equal(step.text, 'Could not schedule it: 0/4 nodes are available: 1 node(s) had untolerated taint(s), 3 Insufficient cpu. no new claims to deallocate, preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.');
    assert.match(s.outcome, /^Stopped at Scheduler for Pod default\/big-[a-z0-9]+-[a-z0-9]+: Could not schedule it: 0\/4 nodes are available/);
    assert.equal(s.pods.filter((p) => p.readyAt !== undefined).length, 3);
  });

  it('an image that cannot be pulled stops the pod\'s story at the kubelet, with containerd\'s error', async () => {
    const [root] = await apply(cluster, BAD_IMAGE);
    await cluster.advance(40_000);
    const s = story(cluster, root!);
    assert.equal(s.state, 'stopped');
    assert.deepEqual(phases(s.steps.filter((x) => x.pod)), ['scheduler', 'kubelet']);
    const kubelet = s.steps.at(-1)!;
    assert.equal(kubelet.state, 'stopped');
    assert.match(kubelet.text, /could not pull the image of c: rpc error: code = Unknown desc = failed to pull and unpack image "example\.invalid\/app:1": .*no such host \(\d times\) and backing off pulling the image of c \(retry in \d+s\)\.$/);
    assert.match(s.outcome, /^Stopped at Kubelet for Pod default\/unpullable: could not pull the image of c: rpc error/);
  });

  it('a rolling update: a new ReplicaSet scaled up, the old one down, old pods stopped and removed', async () => {
    const [root] = await apply(cluster, WEB.replace('nginx:1.27', 'nginx:1.28'));
    await cluster.advance(60_000);
    const s = story(cluster, root!);
    assert.equal(s.state, 'complete', s.outcome);
    assert.match(s.outcome, /^Done in [\d.]+s; 3 pods Ready, 3 old pods removed\.$/);
    const scaled = s.steps.filter((x) => x.phase === 'controller' && / scaled ReplicaSet /.test(x.text)).map((x) => /scaled ReplicaSet (\S+) from (\d+) to (\d+)/.exec(x.text)!.slice(1).join(' '));
    const [oldRs, newRs] = [scaled[0]!.split(' ')[0], scaled[1]!.split(' ')[0]];
    assert.notEqual(oldRs, newRs);
    assert.deepEqual(scaled.filter((x) => x.startsWith(`${oldRs} `)).map((x) => x.slice(oldRs!.length + 1)), ['3 2', '2 1', '1 0'], 'the old ReplicaSet goes down one pod at a time');
    assert.deepEqual(scaled.filter((x) => x.startsWith(`${newRs} `)).map((x) => x.slice(newRs!.length + 1)), ['1 2', '2 3'], 'the new one goes up');
    const removed = s.pods.filter((p) => p.deleted);
    assert.equal(removed.length, 3);
    for (const p of removed) assert.deepEqual(phases(ofPod(s, p.pod).filter((x) => x.phase !== 'endpoints')), ['written', 'kubelet', 'written'], `${p.pod}: marked for deletion, stopped by its kubelet, removed`);
  });

  it('a request the API server rejects stops at the stage that rejected it', async () => {
    const [root] = await apply(cluster, deployment('Bad_Name', 1, '1'));
    const s = story(cluster, root!);
    assert.equal(s.state, 'stopped');
    assert.equal(s.steps.at(-1)!.state, 'stopped');
    assert.match(s.outcome, /^Stopped at .*: 422 Invalid: Deployment\.apps "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name"/);
    assert.equal(s.chain, 1, 'nothing followed');
  });

  it('a request RBAC forbids stops at authorization, with its reason', async () => {
    const [root] = await apply(cluster, deployment('mine', 1, '1'), { username: 'jane', groups: ['system:authenticated'] });
    const s = story(cluster, root!);
    assert.deepEqual(phases(s.steps), ['request', 'authentication', 'authorization']);
    assert.equal(s.steps[2]!.state, 'stopped');
    assert.match(s.steps[2]!.text, /403 Forbidden: deployments\.apps "mine" is forbidden: User "jane" cannot patch resource "deployments" in API group "apps" in the namespace "default"/);
  });

  it('an apply that changes nothing says so: no revision, nothing woke up', async () => {
    const [, service] = await apply(cluster, WEB.replace('nginx:1.27', 'nginx:1.28'));
    const s = story(cluster, service!);
    assert.equal(s.state, 'complete');
    assert.match(s.outcome, /^Nothing changed/);
    assert.equal(s.chain, 1);
  });
});
