import { strict as assert } from 'node:assert';
import type { Container, Pod } from '../../../src/engine/kubelet/api';
import type { ContainerInstance, ContainerRecord } from '../../../src/engine/kubelet/containers';
import { LogBuffer } from '../../../src/engine/kubelet/logs';
import { parseImageRef, type ImageRef } from '../../../src/engine/kubelet/image-ref';
import { generatePodStatus, mergePodStatus, type PodRuntimeView } from '../../../src/engine/kubelet/pod-status';
import { ProbeState, probeTiming } from '../../../src/engine/kubelet/probes';

const iso = (ms: number) => new Date(1735689600000 + ms).toISOString().replace('.000Z', 'Z');
const parsed = parseImageRef('nginx:1.27');
assert.ok(parsed.ok);
const image: ImageRef = parsed.value;

type State = 'running' | 'ready' | 'unready' | { exit: number; reason?: string };

function instance(name: string, state: State, id = name): ContainerInstance {
  const i: ContainerInstance = {
    id: id.padEnd(64, '0'),
    spec: { name, image: 'nginx:1.27' },
    image,
    behavior: { startDelayMs: 0, probeDelayMs: 0, ignoreSigterm: false, shutdownDelayMs: 0 },
    logs: new LogBuffer(id),
    createdAt: 1000,
    startedAt: 1000,
    stopping: false,
    killedForRestart: false,
    started: true,
    probes: {},
  };
  if (state === 'unready' || state === 'ready') {
    i.probes.readiness = new ProbeState('readiness', probeTiming({}));
    if (state === 'ready') i.probes.readiness.observe(true);
  }
  if (typeof state === 'object') {
    i.exit = { code: state.exit, reason: state.reason ?? (state.exit === 0 ? 'Completed' : 'Error') };
    i.finishedAt = 6000;
  }
  return i;
}

function pod(containers: Container[], extra: Partial<NonNullable<Pod['spec']>> = {}, status: Pod['status'] = {}): Pod {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: 'u1', generation: 1 }, spec: { containers, ...extra }, status };
}

function view(records: ContainerRecord[], extra: Partial<PodRuntimeView> = {}): PodRuntimeView {
  return { records: new Map(records.map((r) => [r.name, r])), sandboxReady: true, podIP: '10.244.1.2', hostIP: '172.18.0.2', terminal: false, ...extra };
}

const rec = (name: string, current?: ContainerInstance, extra: Partial<ContainerRecord> = {}): ContainerRecord => ({ name, kind: 'regular', restartCount: 0, ...(current ? { current } : {}), ...extra });
const cond = (p: Pod, v: PodRuntimeView) => generatePodStatus(p, v, (ms) => iso(ms)).conditions!.map((c) => [c.type, c.status, c.reason ?? '', c.message ?? ''].join(' ').trim());

describe('kubelet/pod-status', () => {
  it('reports a pod whose containers are being created', () => {
    const p = pod([{ name: 'nginx', image: 'nginx:1.27' }]);
    const s = generatePodStatus(p, view([], { sandboxReady: false, podIP: undefined }), iso);
    assert.equal(s.phase, 'Pending');
    assert.deepEqual(cond(p, view([], { sandboxReady: false, podIP: undefined })), [
      'PodReadyToStartContainers False',
      'Initialized True',
      'Ready False ContainersNotReady containers with unready status: [nginx]',
      'ContainersReady False ContainersNotReady containers with unready status: [nginx]',
      'PodScheduled True',
    ]);
    assert.deepEqual(s.containerStatuses, [
      { name: 'nginx', state: { waiting: { reason: 'ContainerCreating' } }, lastState: {}, ready: false, restartCount: 0, image: 'nginx:1.27', imageID: '', started: false },
    ]);
    assert.equal(s.podIP, undefined);
    assert.deepEqual(s.hostIPs, [{ ip: '172.18.0.2' }]);
  });

  it('reports running containers, readiness gating Ready', () => {
    const p = pod([{ name: 'nginx' }, { name: 'sidecar' }]);
    const v = view([rec('nginx', instance('nginx', 'ready')), rec('sidecar', instance('sidecar', 'unready'))]);
    const s = generatePodStatus(p, v, iso);
    assert.equal(s.phase, 'Running');
    assert.deepEqual(cond(p, v).slice(2, 4), [
      'Ready False ContainersNotReady containers with unready status: [sidecar]',
      'ContainersReady False ContainersNotReady containers with unready status: [sidecar]',
    ]);
    const nginx = s.containerStatuses![0]!;
    assert.deepEqual(nginx.state, { running: { startedAt: iso(1000) } });
    assert.equal(nginx.ready, true);
    assert.equal(nginx.started, true);
    assert.equal(nginx.image, 'docker.io/library/nginx:1.27');
    assert.equal(nginx.containerID, `containerd://${'nginx'.padEnd(64, '0')}`);
    assert.deepEqual(s.podIPs, [{ ip: '10.244.1.2' }]);
  });

  it('says which readiness gates hold a ready pod back', () => {
    const p = pod([{ name: 'nginx' }], { readinessGates: [{ conditionType: 'example.com/lb' }, { conditionType: 'example.com/dns' }] }, {
      conditions: [{ type: 'example.com/dns', status: 'False' }],
    });
    const v = view([rec('nginx', instance('nginx', 'running'))]);
    assert.deepEqual(cond(p, v)[2], 'Ready False ReadinessGatesNotReady corresponding condition of pod readiness gate "example.com/lb" does not exist., the status of pod readiness gate "example.com/dns" is not "True", but False');
    assert.equal(cond(p, v)[3], 'ContainersReady True');
  });

  it('waits in PodInitializing while init containers run, and says which are incomplete', () => {
    const p = pod([{ name: 'nginx' }], { initContainers: [{ name: 'setup' }, { name: 'proxy', restartPolicy: 'Always' }] });
    const v = view([{ ...rec('setup', instance('setup', 'running')), kind: 'init' }]);
    const s = generatePodStatus(p, v, iso);
    assert.equal(s.phase, 'Pending');
    assert.deepEqual(cond(p, v)[1], 'Initialized False ContainersNotInitialized containers with incomplete status: [setup proxy]');
    assert.deepEqual(s.containerStatuses![0]!.state, { waiting: { reason: 'PodInitializing' } });
    assert.deepEqual(s.initContainerStatuses![1]!.state, { waiting: { reason: 'PodInitializing' } });
  });

  it('keeps a crash-looping pod Running, with the back-off as waiting state and the crash as last state', () => {
    const p = pod([{ name: 'nginx' }]);
    const record = rec('nginx', instance('nginx', { exit: 1 }, 'b'), {
      previous: instance('nginx', { exit: 1 }, 'a'),
      restartCount: 1,
      waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=nginx pod=web_default(u1)' },
    });
    const s = generatePodStatus(p, view([record]), iso);
    assert.equal(s.phase, 'Running');
    const c = s.containerStatuses![0]!;
    assert.deepEqual(c.state, { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 10s restarting failed container=nginx pod=web_default(u1)' } });
    assert.deepEqual(c.lastState, {
      terminated: { exitCode: 1, reason: 'Error', startedAt: iso(1000), finishedAt: iso(6000), containerID: `containerd://${'b'.padEnd(64, '0')}` },
    });
    assert.equal(c.restartCount, 1);
  });

  it('derives the phase as getPhase does', () => {
    const phase = (restartPolicy: string, states: State[], terminal = false) =>
      generatePodStatus(pod(states.map((_, i) => ({ name: `c${i}` })), { restartPolicy }), view(states.map((st, i) => rec(`c${i}`, instance(`c${i}`, st))), { terminal }), iso).phase;
    assert.equal(phase('Never', [{ exit: 0 }, { exit: 0 }]), 'Succeeded');
    assert.equal(phase('Never', [{ exit: 0 }, { exit: 2 }]), 'Failed');
    assert.equal(phase('OnFailure', [{ exit: 0 }, { exit: 2 }]), 'Running');
    assert.equal(phase('OnFailure', [{ exit: 0 }]), 'Succeeded');
    assert.equal(phase('Always', [{ exit: 0 }]), 'Running');
    assert.equal(phase('Always', [{ exit: 0 }], true), 'Succeeded', 'a deleted pod ends terminal');
    assert.equal(phase('Always', [{ exit: 137 }], true), 'Failed');
    assert.equal(phase('Never', ['running', { exit: 1 }]), 'Running');
    const neverStarted = generatePodStatus(pod([{ name: 'c0' }]), view([], { terminal: true, sandboxReady: false }), iso);
    assert.equal(neverStarted.phase, 'Failed', 'deleted before any container ran');
  });

  it('gives terminal pods the PodCompleted and PodFailed reasons', () => {
    const done = pod([{ name: 'main' }], { restartPolicy: 'Never' });
    assert.deepEqual(cond(done, view([rec('main', instance('main', { exit: 0 }))], { sandboxReady: false })), [
      'PodReadyToStartContainers False',
      'Initialized True PodCompleted',
      'Ready False PodCompleted',
      'ContainersReady False PodCompleted',
      'PodScheduled True',
    ]);
    assert.deepEqual(cond(done, view([rec('main', instance('main', { exit: 3 }))])).slice(2, 4), ['Ready False PodFailed', 'ContainersReady False PodFailed']);
  });

  it('merges as the status manager does: others\' conditions kept first, transition times kept while a status holds', () => {
    const p = pod([{ name: 'nginx' }], {}, {
      phase: 'Pending',
      qosClass: 'BestEffort',
      startTime: iso(0),
      conditions: [
        { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: iso(0) },
        { type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler', lastTransitionTime: iso(500) },
        { type: 'Ready', status: 'False', lastTransitionTime: iso(0), reason: 'ContainersNotReady' },
      ],
    });
    const generated = generatePodStatus(p, view([rec('nginx', instance('nginx', 'running'))]), iso);
    const merged = mergePodStatus(p, generated, iso(5000));
    assert.deepEqual(Object.keys(merged), ['observedGeneration', 'phase', 'conditions', 'hostIP', 'hostIPs', 'podIP', 'podIPs', 'startTime', 'containerStatuses', 'qosClass']);
    assert.equal(merged.startTime, iso(0));
    assert.equal(merged.qosClass, 'BestEffort');
    assert.deepEqual(merged.conditions!.map((c) => [c.type, c.lastTransitionTime]), [
      ['DisruptionTarget', iso(500)],
      ['PodReadyToStartContainers', iso(5000)],
      ['Initialized', iso(5000)],
      ['Ready', iso(5000)],
      ['ContainersReady', iso(5000)],
      ['PodScheduled', iso(0)],
    ]);
    assert.deepEqual(merged.conditions![3], { type: 'Ready', observedGeneration: 1, status: 'True', lastProbeTime: null, lastTransitionTime: iso(5000) });
  });
});
