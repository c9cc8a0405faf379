import { strict as assert } from 'node:assert';
import { formatLogLine, limitBytes, LogBuffer, LOG_LINES_PER_INSTANCE, logContainerID, logTimestamp, resolveLogContainer, selectLines } from '../../../src/engine/kubelet/logs';
import type { Pod, PodStatus } from '../../../src/engine/kubelet/api';
import { StatusError } from '../../../src/engine/api/status';

const T = 1735689600000;

function throwsBadRequest(fn: () => unknown, message: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof StatusError);
    assert.equal(err.code, 400);
    assert.equal(err.reason, 'BadRequest');
    assert.equal(err.message, message);
    return true;
  });
}

describe('kubelet/logs', () => {
  it('keeps the last lines of an instance and tells followers of new lines and of the end', () => {
    const b = new LogBuffer('containerd://x');
    for (let i = 0; i < LOG_LINES_PER_INSTANCE + 5; i++) b.append(T + i, `line ${i}`);
    assert.equal(b.all().length, LOG_LINES_PER_INSTANCE);
    assert.equal(b.all()[0]!.text, 'line 5');
    const seen: string[] = [];
    let ended = false;
    b.follow((l) => seen.push(l.text), () => (ended = true));
    b.append(T + 1000, 'more');
    b.end();
    b.append(T + 2000, 'after the end');
    assert.deepEqual(seen, ['more']);
    assert.equal(ended, true);
  });

  it('applies tailLines, sinceSeconds, sinceTime, timestamps and limitBytes', () => {
    const lines = [0, 1000, 2000, 3000].map((ms, i) => ({ time: T + ms, text: `l${i}` }));
    assert.deepEqual(selectLines(lines, { tailLines: 2 }, T + 3000).map((l) => l.text), ['l2', 'l3']);
    assert.deepEqual(selectLines(lines, { tailLines: 0 }, T + 3000), []);
    assert.deepEqual(selectLines(lines, { sinceSeconds: 1 }, T + 3000).map((l) => l.text), ['l2', 'l3']);
    assert.deepEqual(selectLines(lines, { sinceTime: '2025-01-01T00:00:01Z' }, T + 3000).map((l) => l.text), ['l1', 'l2', 'l3']);
    assert.equal(logTimestamp(T + 1234), '2025-01-01T00:00:01.234000000Z');
    assert.equal(formatLogLine(lines[1]!, true), '2025-01-01T00:00:01.000000000Z l1\n');
    assert.equal(formatLogLine(lines[1]!, false), 'l1\n');
    assert.equal(limitBytes('héllo\nworld\n', 3), 'hé');
    assert.equal(limitBytes('abc', undefined), 'abc');
  });

  it("picks the container as the API server's pods/log does", () => {
    const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { initContainers: [{ name: 'setup' }], containers: [{ name: 'a' }, { name: 'b' }] } };
    assert.equal(resolveLogContainer(pod, 'b'), 'b');
    assert.equal(resolveLogContainer(pod, 'setup'), 'setup');
    throwsBadRequest(() => resolveLogContainer(pod, undefined), 'a container name must be specified for pod web, choose one of: [a b] or one of the init containers: [setup]');
    throwsBadRequest(() => resolveLogContainer(pod, 'c'), 'container c is not valid for pod web');
    assert.equal(resolveLogContainer({ ...pod, spec: { containers: [{ name: 'only' }] } }, undefined), 'only');
  });

  it('refuses reads in the words of the kubelet', () => {
    const status = (state: object, lastState: object = {}): PodStatus => ({
      containerStatuses: [{ name: 'nginx', state, lastState, ready: false, restartCount: 0, image: 'nginx', imageID: '', containerID: 'containerd://cur' }],
    });
    throwsBadRequest(() => logContainerID('web', status({ waiting: { reason: 'ContainerCreating' } }), 'nginx', false), 'container "nginx" in pod "web" is waiting to start: ContainerCreating');
    throwsBadRequest(() => logContainerID('web', status({ waiting: { reason: 'ErrImagePull' } }), 'nginx', false), 'container "nginx" in pod "web" is waiting to start: image can\'t be pulled');
    throwsBadRequest(() => logContainerID('web', status({ waiting: { reason: 'ImagePullBackOff' } }), 'nginx', false), 'container "nginx" in pod "web" is waiting to start: trying and failing to pull image');
    throwsBadRequest(() => logContainerID('web', status({ running: {} }), 'nginx', true), 'previous terminated container "nginx" in pod "web" not found');
    throwsBadRequest(() => logContainerID('web', status({ running: {} }), 'other', false), 'container "other" in pod "web" is not available');
    assert.equal(logContainerID('web', status({ running: {} }), 'nginx', false), 'containerd://cur');
    const crashed = status({ waiting: { reason: 'CrashLoopBackOff' } }, { terminated: { exitCode: 1, containerID: 'containerd://old' } });
    assert.equal(logContainerID('web', crashed, 'nginx', false), 'containerd://old', 'a crash-looping container shows its last run');
    assert.equal(logContainerID('web', crashed, 'nginx', true), 'containerd://old');
  });
});
