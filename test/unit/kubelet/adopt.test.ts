import { strict as assert } from 'node:assert';
import { adoptContainers, ranBefore } from '../../../src/engine/kubelet/adopt';
import type { Pod } from '../../../src/engine/kubelet/api';
import type { ContainerBehavior } from '../../../src/engine/kubelet/behavior';

const behavior: ContainerBehavior = { startDelayMs: 0, probeDelayMs: 0, ignoreSigterm: false, shutdownDelayMs: 0 };
const ms = (t?: string | null) => (t ? Date.parse(t) : undefined);
const ID = 'a'.repeat(64);
const OLD = 'b'.repeat(64);

function pod(status: Pod['status']): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web', namespace: 'default', uid: 'u1' },
    spec: { nodeName: 'node-1', containers: [{ name: 'nginx', image: 'nginx:1.27' }, { name: 'side', image: 'busybox' }] },
    status,
  } as Pod;
}

describe('kubelet adoption of pods that ran before it started', () => {
  it('takes running and crash-looping containers back from the status', () => {
    const p = pod({
      phase: 'Running',
      podIP: '10.244.1.2',
      containerStatuses: [
        { name: 'nginx', ready: true, restartCount: 1, image: 'docker.io/library/nginx:1.27', imageID: '', containerID: `containerd://${ID}`, started: true, state: { running: { startedAt: '2025-01-01T00:00:10Z' } }, lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: '2025-01-01T00:00:01Z', finishedAt: '2025-01-01T00:00:05Z', containerID: `containerd://${OLD}` } } },
        { name: 'side', ready: false, restartCount: 2, image: 'docker.io/library/busybox:latest', imageID: '', containerID: `containerd://${OLD}`, started: false, state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=side pod=web_default(u1)' } }, lastState: { terminated: { exitCode: 2, reason: 'Error', startedAt: '2025-01-01T00:00:20Z', finishedAt: '2025-01-01T00:00:21Z', containerID: `containerd://${OLD}` } } },
      ],
    });
    assert.equal(ranBefore(p), true);
    const adopted = adoptContainers(p, () => behavior, ms);
    const nginx = adopted.records.get('nginx')!;
    assert.equal(nginx.restartCount, 1);
    assert.equal(nginx.current?.id, ID);
    assert.equal(nginx.current?.startedAt, Date.parse('2025-01-01T00:00:10Z'));
    assert.equal(nginx.current?.started, true);
    assert.deepEqual(nginx.previous?.exit, { code: 1, reason: 'Error' });
    const side = adopted.records.get('side')!;
    assert.deepEqual(side.current?.exit, { code: 2, reason: 'Error' });
    assert.deepEqual(side.waiting, { reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=side pod=web_default(u1)' });
    assert.deepEqual(adopted.running.map((i) => i.spec.name), ['nginx']);
    assert.deepEqual(adopted.images.map((i) => i.tagged), ['docker.io/library/nginx:1.27', 'docker.io/library/busybox:latest']);
  });

  it('leaves a pod that never had a container to the usual admission', () => {
    const p = pod({ phase: 'Pending', containerStatuses: [{ name: 'nginx', ready: false, restartCount: 0, image: 'nginx:1.27', imageID: '', state: { waiting: { reason: 'ContainerCreating' } } }] });
    assert.equal(ranBefore(p), false);
    assert.equal(adoptContainers(p, () => behavior, ms).records.size, 0);
  });
});
