import { strict as assert } from 'node:assert';
import { kubeletHarness, type KubeletHarness } from './harness';
import type { Container, Pod } from '../../../src/engine/kubelet/api';
import type { ApiRequestRecord } from '../../../src/engine/trace/apiserver';

const nginx = (extra: Partial<Container> = {}): Container => ({ name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 80 }], ...extra });

function web(extra: { annotations?: Record<string, string>; spec?: Partial<NonNullable<Pod['spec']>>; name?: string } = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: extra.name ?? 'web', namespace: 'default', ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: { containers: [nginx()], ...extra.spec },
  };
}

/** "t phase container-state" lines of each stored version of the pod (status changes only). */
function timeline(seen: { t: number; type: string; pod: Pod }[], name = 'web'): string[] {
  const out: string[] = [];
  for (const { t, type, pod } of seen) {
    if (pod.metadata.name !== name) continue;
    const c = pod.status?.containerStatuses?.[0];
    const state = c?.state?.running ? 'running' : c?.state?.terminated ? `terminated:${c.state.terminated.reason}` : c?.state?.waiting ? `waiting:${c.state.waiting.reason}` : '-';
    const ready = pod.status?.conditions?.find((x) => x.type === 'Ready')?.status ?? '-';
    const line = `${type === 'DELETED' ? 'DELETED' : pod.status?.phase} ${state} ready=${ready} restarts=${c?.restartCount ?? 0}`;
    if (out.length === 0 || !out[out.length - 1]!.endsWith(line)) out.push(`${t} ${line}`);
  }
  return out;
}

const containerEvents = async (h: KubeletHarness) => (await h.events('default', (e) => e.involvedObject.kind === 'Pod')).map((e) => e);

describe('kubelet: pods', () => {
  it('runs a pod bound to its node: Pending, ContainerCreating, then Running and Ready', async () => {
    const h = await kubeletHarness();
    const seen = await h.watchPods();
    const created = await h.createPod(web());
    const result = await h.cluster.settle();
    assert.equal(result.settled, true);
    assert.deepEqual(timeline(seen), ['0 Pending - ready=- restarts=0', '0 Pending waiting:ContainerCreating ready=False restarts=0', '4.484 Running running ready=True restarts=0']);
    const pod = await h.getPod('web');
    const s = pod.status!;
    assert.equal(s.qosClass, 'BestEffort', 'kept from the API server');
    assert.equal(s.hostIP, '172.18.0.2');
    assert.deepEqual(s.podIPs, [{ ip: '10.244.1.2' }]);
    assert.equal(s.startTime, '2025-01-01T00:00:00Z');
    assert.equal(s.observedGeneration, 1);
    assert.deepEqual(s.conditions!.map((c) => `${c.type}=${c.status}@${c.lastTransitionTime}`), [
      'PodReadyToStartContainers=True@2025-01-01T00:00:04Z',
      'Initialized=True@2025-01-01T00:00:00Z',
      'Ready=True@2025-01-01T00:00:04Z',
      'ContainersReady=True@2025-01-01T00:00:04Z',
      'PodScheduled=True@2025-01-01T00:00:00Z',
    ]);
    const c = s.containerStatuses![0]!;
    assert.deepEqual([c.ready, c.started, c.restartCount, c.image], [true, true, 0, 'docker.io/library/nginx:1.27']);
    assert.match(c.containerID ?? '', /^containerd:\/\/[0-9a-f]{64}$/);
    assert.match(c.imageID, /^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
    assert.deepEqual(await containerEvents(h), [
      'Normal Pulling Pulling image "nginx:1.27"',
      'Normal Pulled Successfully pulled image "nginx:1.27" in 3.384s (3.384s including waiting). Image size: 72099410 bytes.',
      'Normal Created Container created',
      'Normal Started Container started',
    ]);
    const pulling = (await h.rawEvents()).find((e) => e.reason === 'Pulling');
    assert.deepEqual(pulling!.involvedObject.fieldPath, 'spec.containers{nginx}');
    assert.equal(pulling!.involvedObject.uid, created.metadata.uid);
    const writes = h.cluster.trace.records().filter((r): r is ApiRequestRecord => r.type === 'api.request' && r.resource === 'pods' && r.verb === 'patch');
    assert.deepEqual(writes.map((r) => [r.user, r.subresource, r.code]), [
      ['system:node:node-1', 'status', 200],
      ['system:node:node-1', 'status', 200],
    ]);
    assert.ok(writes.every((w) => w.cause !== undefined), 'status writes name the kubelet step that caused them');
    await h.close();
  });

  it('gates Ready on the readiness probe, and takes it away when the application stops answering', async () => {
    const h = await kubeletHarness();
    const seen = await h.watchPods();
    const probe = { httpGet: { path: '/ready', port: 80 }, initialDelaySeconds: 10, periodSeconds: 5, failureThreshold: 3 };
    await h.createPod(web({ annotations: { 'kubesim.dev/behavior': 'fail-readiness-after=30s' }, spec: { containers: [nginx({ readinessProbe: probe })] } }));
    await h.cluster.settle();
    // Started at 4.484 s: ready at the first probe 10 s later; failing from 34.484 s; the third failure at 44.484 s.
    assert.deepEqual(timeline(seen), [
      '0 Pending - ready=- restarts=0',
      '0 Pending waiting:ContainerCreating ready=False restarts=0',
      '4.484 Running running ready=False restarts=0',
      '14.484 Running running ready=True restarts=0',
      '44.484 Running running ready=False restarts=0',
    ]);
    const pod = await h.getPod('web');
    const ready = pod.status!.conditions!.find((c) => c.type === 'Ready')!;
    assert.deepEqual([ready.reason, ready.message], ['ContainersNotReady', 'containers with unready status: [nginx]']);
    const unhealthy = (await h.rawEvents()).find((e) => e.reason === 'Unhealthy')!;
    assert.equal(unhealthy.message, 'Readiness probe failed: HTTP probe failed with statuscode: 503');
    assert.equal(unhealthy.count, 3);
    assert.match(h.kubelet.logs('default', 'web', 'nginx', { tailLines: 1 }), /^10\.244\.1\.1 - "GET \/ready HTTP\/1\.1" 503 "kube-probe\/1\.35"\n$/);
    await h.close();
  });

  it('restarts a crashing container behind CrashLoopBackOff: 0 s, 10 s, 20 s, 40 s ... 5 min', async () => {
    const h = await kubeletHarness();
    const seen = await h.watchPods();
    const pod = await h.createPod(web({ annotations: { 'kubesim.dev/behavior': 'crash-after=5s' } }));
    await h.cluster.settle({ maxDuration: 30 * 60_000 });
    const starts = h.records().filter((r) => r.action === 'container-started').map((r) => (r.time - 1735689600000) / 1000);
    const exits = h.records().filter((r) => r.action === 'container-exited').map((r) => (r.time - 1735689600000) / 1000);
    const waits = starts.slice(1).map((s, i) => Math.round((s - exits[i]!) * 10) / 10);
    // Each restart also takes the 0.1 s of CreateContainer. At the 5-minute cap the loop is steady
    // and no longer keeps the cluster from settling; advancing time runs it on.
    assert.deepEqual(waits, [0.1, 10.1, 20.1, 40.1, 80.1, 160.1]);
    await h.cluster.advance(310_000);
    const restarted = h.records().filter((r) => r.action === 'container-started').map((r) => (r.time - 1735689600000) / 1000);
    assert.equal(Math.round((restarted[7]! - exits[6]!) * 10) / 10, 300.1);
    const lines = timeline(seen);
    assert.deepEqual(lines.slice(2, 8), [
      '4.484 Running running ready=True restarts=0',
      '9.484 Running terminated:Error ready=False restarts=0',
      '9.584 Running running ready=True restarts=1',
      '14.584 Running terminated:Error ready=False restarts=1',
      '15.584 Running waiting:CrashLoopBackOff ready=False restarts=1',
      '24.684 Running running ready=True restarts=2',
    ]);
    await h.cluster.advance(6_000);
    const now = await h.getPod('web');
    const c = now.status!.containerStatuses![0]!;
    assert.deepEqual(c.state?.waiting, { reason: 'CrashLoopBackOff', message: `back-off 5m0s restarting failed container=nginx pod=web_default(${pod.metadata.uid})` });
    assert.deepEqual([c.lastState?.terminated?.exitCode, c.lastState?.terminated?.reason], [1, 'Error']);
    const backOff = (await h.rawEvents()).find((e) => e.reason === 'BackOff')!;
    assert.equal(backOff.type, 'Warning');
    assert.equal(backOff.message, `Back-off restarting failed container nginx in pod web_default(${pod.metadata.uid})`);
    assert.equal(h.kubelet.logs('default', 'web', 'nginx', { previous: true }).split('\n').at(-2), 'fatal error: simulated crash, exiting with code 1');
    await h.close();
  });

  it('fails a missing image with ErrImagePull, then ImagePullBackOff, retrying after 10 s, 20 s, 40 s', async () => {
    const h = await kubeletHarness([{ images: { missing: ['nginx:nope'] } }]);
    const seen = await h.watchPods();
    await h.createPod(web({ spec: { containers: [nginx({ image: 'nginx:nope' })] } }));
    await h.cluster.advance(80_000);
    const pulls = h.records().filter((r) => r.action === 'image-pulling').map((r) => (r.time - 1735689600000) / 1000);
    assert.deepEqual(pulls, [1, 12, 33, 74]);
    assert.deepEqual(timeline(seen).slice(1, 5), [
      '0 Pending waiting:ContainerCreating ready=False restarts=0',
      '3 Pending waiting:ErrImagePull ready=False restarts=0',
      '4 Pending waiting:ImagePullBackOff ready=False restarts=0',
      '14 Pending waiting:ErrImagePull ready=False restarts=0',
    ]);
    const notFound = 'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:nope": failed to resolve reference "docker.io/library/nginx:nope": docker.io/library/nginx:nope: not found';
    const c = (await h.getPod('web')).status!.containerStatuses![0]!;
    assert.deepEqual(c.state?.waiting, { reason: 'ImagePullBackOff', message: `Back-off pulling image "nginx:nope": ErrImagePull: ${notFound}` });
    const events = await containerEvents(h);
    assert.deepEqual(events, [
      'Normal Pulling Pulling image "nginx:nope"',
      `Warning Failed Failed to pull image "nginx:nope": ${notFound}`,
      'Warning Failed Error: ErrImagePull',
      'Normal BackOff Back-off pulling image "nginx:nope"',
      'Warning Failed Error: ImagePullBackOff',
    ]);
    assert.equal((await h.rawEvents()).find((e) => e.reason === 'Pulling')?.count, 4);
    assert.throws(() => h.kubelet.logs('default', 'web', 'nginx'), /container "nginx" in pod "web" is waiting to start: trying and failing to pull image/);
    await h.close();
  });

  it('stops containers on deletion and removes the pod with grace period 0 once they are stopped', async () => {
    const h = await kubeletHarness();
    await h.createPod(web({ spec: { containers: [nginx({ lifecycle: { preStop: { exec: { command: ['/bin/sh', '-c', 'sleep 5'] } } } })] } }));
    await h.createPod(web({ name: 'stubborn', annotations: { 'kubesim.dev/behavior': 'ignore-sigterm' }, spec: { terminationGracePeriodSeconds: 20 } }));
    await h.cluster.settle();
    const seen = await h.watchPods();
    const deletedAt = h.elapsed() / 1000;
    await h.deletePod('web');
    await h.deletePod('stubborn');
    await h.cluster.settle();
    const last = (name: string) => seen.filter((s) => s.pod.metadata.name === name);
    const webVersions = last('web');
    assert.equal(webVersions.at(-1)!.type, 'DELETED');
    assert.equal(webVersions.at(-1)!.t - deletedAt, 5, 'preStop sleeps 5 s, then SIGTERM ends nginx');
    const final = webVersions.at(-2)!.pod.status!;
    assert.equal(final.phase, 'Succeeded', 'a deleted pod ends in a terminal phase');
    assert.deepEqual(final.containerStatuses![0]!.state?.terminated?.reason, 'Completed');
    assert.equal(final.conditions!.find((c) => c.type === 'PodReadyToStartContainers')!.status, 'False');
    const stubborn = last('stubborn');
    assert.equal(stubborn.at(-1)!.t - deletedAt, 20, 'killed at the end of its grace period');
    const killed = stubborn.at(-2)!.pod.status!;
    assert.equal(killed.phase, 'Failed');
    assert.deepEqual([killed.containerStatuses![0]!.state?.terminated?.exitCode, killed.containerStatuses![0]!.state?.terminated?.reason], [137, 'Error']);
    const kills = (await h.rawEvents()).filter((e) => e.reason === 'Killing').map((e) => `${e.involvedObject.name} ${e.message}`);
    assert.deepEqual(kills, ['web Stopping container nginx', 'stubborn Stopping container nginx']);
    const deletes = h.cluster.trace.records().filter((r): r is ApiRequestRecord => r.type === 'api.request' && r.verb === 'delete' && r.user === 'system:node:node-1');
    assert.deepEqual(deletes.map((d) => d.name), ['web', 'stubborn']);
    await h.close();
  });

  it('restarts a container whose liveness probe fails', async () => {
    const h = await kubeletHarness();
    const probe = { httpGet: { path: '/healthz', port: 80 }, periodSeconds: 5, failureThreshold: 3 };
    await h.createPod(web({ annotations: { 'kubesim.dev/behavior': 'fail-liveness-after=20s' }, spec: { containers: [nginx({ livenessProbe: probe })] } }));
    await h.cluster.advance(40_000);
    const events = await containerEvents(h);
    assert.ok(events.includes('Normal Killing Container nginx failed liveness probe, will be restarted'), events.join('\n'));
    assert.ok(events.includes('Warning Unhealthy Liveness probe failed: HTTP probe failed with statuscode: 500'));
    const c = (await h.getPod('web')).status!.containerStatuses![0]!;
    assert.equal(c.restartCount, 1);
    assert.equal(c.lastState?.terminated?.reason, 'Completed');
    await h.close();
  });

  it('runs init containers one by one and sidecars alongside, then the containers', async () => {
    const h = await kubeletHarness();
    const seen = await h.watchPods();
    await h.createPod(
      web({ spec: { initContainers: [{ name: 'setup', image: 'busybox:1.36' }, { name: 'proxy', image: 'nginx:1.27', restartPolicy: 'Always' }] } }),
    );
    await h.cluster.settle();
    const pod = await h.getPod('web');
    assert.equal(pod.status!.phase, 'Running');
    assert.deepEqual(pod.status!.initContainerStatuses!.map((c) => [c.name, c.state?.terminated?.reason ?? (c.state?.running ? 'running' : '?'), c.ready]), [
      ['setup', 'Completed', false],
      ['proxy', 'running', true],
    ]);
    const pending = seen.find((s) => s.pod.status?.initContainerStatuses)!.pod.status!;
    assert.deepEqual(pending.conditions!.find((c) => c.type === 'Initialized'), {
      // lastProbeTime is a metav1.Time: its zero value is stored as null.
      type: 'Initialized', observedGeneration: 1, status: 'False', lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:00Z',
      reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [setup proxy]',
    });
    assert.deepEqual(pending.containerStatuses![0]!.state, { waiting: { reason: 'PodInitializing' } });
    const order = h.records().filter((r) => r.action === 'container-started').map((r) => r.container);
    assert.deepEqual(order, ['setup', 'proxy', 'nginx']);
    await h.close();
  });

  it('fails a pod whose init container fails under restartPolicy Never, and completes batch pods', async () => {
    const h = await kubeletHarness();
    await h.createPod(web({ annotations: { 'kubesim.dev/behavior': 'setup: exit=2' }, spec: { restartPolicy: 'Never', initContainers: [{ name: 'setup', image: 'busybox:1.36' }] } }));
    await h.createPod(web({ name: 'job', spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] } }));
    await h.cluster.settle();
    const failed = (await h.getPod('web')).status!;
    assert.equal(failed.phase, 'Failed');
    assert.equal(failed.initContainerStatuses![0]!.state?.terminated?.exitCode, 2);
    assert.deepEqual(failed.containerStatuses![0]!.state, { waiting: { reason: 'PodInitializing' } });
    const job = (await h.getPod('job')).status!;
    assert.equal(job.phase, 'Succeeded');
    assert.deepEqual(job.conditions!.map((c) => `${c.type}=${c.status}${c.reason ? `/${c.reason}` : ''}`), [
      'PodReadyToStartContainers=False', 'Initialized=True/PodCompleted', 'Ready=False/PodCompleted', 'ContainersReady=False/PodCompleted', 'PodScheduled=True',
    ]);
    await h.close();
  });

  it('records OOM kills', async () => {
    const h = await kubeletHarness();
    await h.createPod(web({ annotations: { 'kubesim.dev/behavior': 'oom-after=20s' } }));
    await h.cluster.advance(30_000);
    const c = (await h.getPod('web')).status!.containerStatuses![0]!;
    assert.deepEqual([c.lastState?.terminated?.reason, c.lastState?.terminated?.exitCode, c.restartCount], ['OOMKilled', 137, 1]);
    await h.close();
  });

  it('rejects pods that do not fit, as the kubelet admission does', async () => {
    const h = await kubeletHarness([{ cpu: '1' }]);
    await h.createPod(web({ spec: { containers: [nginx({ resources: { requests: { cpu: '2' } } })] } }));
    await h.cluster.settle();
    const s = (await h.getPod('web')).status!;
    assert.deepEqual([s.phase, s.reason, s.message], ['Failed', 'OutOfcpu', "Pod was rejected: Node didn't have enough resource: cpu, requested: 2000, used: 0, capacity: 1000"]);
    assert.deepEqual(await containerEvents(h), ["Warning OutOfcpu Node didn't have enough resource: cpu, requested: 2000, used: 0, capacity: 1000"]);
    await h.close();
  });

  it('reports a malformed behavior annotation and runs the defaults', async () => {
    const h = await kubeletHarness();
    await h.createPod(web({ annotations: { 'kubesim.dev/behavior': 'crash-after=30' } }));
    await h.cluster.settle();
    assert.deepEqual((await containerEvents(h))[0], 'Warning InvalidBehavior kubesim.dev/behavior: crash-after: time: missing unit in duration "30"; the containers run with the default behavior');
    assert.equal((await h.getPod('web')).status!.phase, 'Running');
    await h.close();
  });

  it('serves logs: current, previous, tail, timestamps, and follows until the container exits', async () => {
    const h = await kubeletHarness();
    await h.createPod(web({ annotations: { 'kubesim.dev/behavior': 'exit=0 after=30s' } }));
    await h.cluster.advance(2000);
    assert.throws(() => h.kubelet.logs('default', 'web', 'nginx'), /^StatusError: container "nginx" in pod "web" is waiting to start: ContainerCreating$/);
    await h.cluster.advance(5000);
    assert.equal(h.kubelet.logs('default', 'web', 'nginx'), 'starting nginx (image docker.io/library/nginx:1.27)\nlistening on :80\n');
    assert.equal(h.kubelet.logs('default', 'web', 'nginx', { timestamps: true, tailLines: 1 }), '2025-01-01T00:00:04.484000000Z listening on :80\n');
    const stream = h.kubelet.openLogs('default', 'web', 'nginx', { tailLines: 1 });
    assert.equal(stream.text, 'listening on :80\n');
    const chunks: string[] = [];
    let ended = false;
    stream.subscribe!((c) => chunks.push(c), () => (ended = true));
    await h.cluster.advance(30_000);
    assert.equal(ended, true);
    assert.deepEqual(chunks, ['work complete, exiting with code 0\n']);
    assert.equal(h.kubelet.openLogs('default', 'web', 'nginx', { previous: true }).subscribe, undefined, 'an exited instance has nothing more to follow');
    assert.match(h.kubelet.logs('default', 'web', 'nginx', { previous: true }), /work complete/);
    assert.throws(() => h.kubelet.logs('default', 'nope', 'nginx'), /pod "nope" does not exist/);
    await h.close();
  });

  it('is deterministic: the same seed gives the same pods, IDs and events', async () => {
    const run = async () => {
      const h = await kubeletHarness();
      await h.createPod(web({ annotations: { 'kubesim.dev/behavior': 'crash-after=3s' } }));
      await h.createPod(web({ name: 'b' }));
      await h.cluster.advance(60_000);
      const out = JSON.stringify([await h.getPod('web'), await h.getPod('b'), await h.rawEvents()]);
      await h.close();
      return out;
    };
    assert.equal(await run(), await run());
  });
});
