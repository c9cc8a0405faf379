import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../src/engine/api/types';
import { printerFor, printTable } from '../../../src/engine/printers';

const NOW = Date.parse('2025-01-01T01:00:00Z');
const ago = (ms: number): string => new Date(NOW - ms).toISOString().replace('.000Z', 'Z');

function pod(spec: Record<string, unknown>, status: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', creationTimestamp: ago(3600_000), ...meta }, spec, status };
}

const cells = (p: KubeObject) => printTable(printerFor('', 'pods'), [p], NOW).rows[0]!.cells;
const summary = (p: KubeObject) => cells(p).slice(1, 4);

const one = { containers: [{ name: 'c', image: 'nginx' }] };
const two = { containers: [{ name: 'a' }, { name: 'b' }] };
const running = (name: string, ready: boolean, extra: Record<string, unknown> = {}) => ({ name, ready, restartCount: 0, state: { running: { startedAt: ago(60_000) } }, ...extra });

// Cases after pkg/printers/internalversion printers_test.go (TestPrintPod, TestPrintPodWithRestartableInitContainer).
describe('printers: pods (printPod)', () => {
  it('has the columns kubectl shows, with the wide ones at priority 1', () => {
    const t = printTable(printerFor('', 'pods'), [], NOW);
    assert.deepEqual(
      t.columnDefinitions!.map((c) => [c.name, c.type, c.priority]),
      [
        ['Name', 'string', 0],
        ['Ready', 'string', 0],
        ['Status', 'string', 0],
        ['Restarts', 'string', 0],
        ['Age', 'string', 0],
        ['IP', 'string', 1],
        ['Node', 'string', 1],
        ['Nominated Node', 'string', 1],
        ['Readiness Gates', 'string', 1],
      ],
    );
    assert.equal(t.columnDefinitions![0]!.format, 'name');
  });

  it('counts ready containers and sums restarts', () => {
    const p = pod(two, { phase: 'Running', containerStatuses: [running('a', true, { restartCount: 3 }), running('b', false, { restartCount: 3 })] });
    assert.deepEqual(summary(p), ['1/2', 'Running', '6']);
  });

  it('says when the last restart was: "3 (2m ago)"', () => {
    const last = { lastState: { terminated: { exitCode: 1, finishedAt: ago(125_000) } } };
    const p = pod(one, { phase: 'Running', containerStatuses: [running('c', true, { restartCount: 3, ...last })] });
    assert.deepEqual(summary(p), ['1/1', 'Running', '3 (2m5s ago)']);
  });

  it('shows a waiting container\'s reason', () => {
    const p = pod(one, { phase: 'Pending', containerStatuses: [{ name: 'c', ready: false, restartCount: 0, state: { waiting: { reason: 'ContainerCreating' } } }] });
    assert.deepEqual(summary(p), ['0/1', 'ContainerCreating', '0']);
    const crash = pod(one, { phase: 'Running', containerStatuses: [{ name: 'c', ready: false, restartCount: 4, state: { waiting: { reason: 'CrashLoopBackOff' } } }] });
    assert.deepEqual(summary(crash), ['0/1', 'CrashLoopBackOff', '4']);
  });

  it('shows init progress and init failures', () => {
    const spec = { initContainers: [{ name: 'i1' }, { name: 'i2' }], containers: [{ name: 'c' }] };
    const waiting = (reason: string) => ({ name: 'i2', ready: false, restartCount: 0, state: { waiting: { reason } } });
    const done = { name: 'i1', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } };
    assert.equal(summary(pod(spec, { phase: 'Pending', initContainerStatuses: [done, waiting('PodInitializing')] }))[1], 'Init:1/2');
    assert.equal(summary(pod(spec, { phase: 'Pending', initContainerStatuses: [done, waiting('CrashLoopBackOff')] }))[1], 'Init:CrashLoopBackOff');
    const failed = { name: 'i1', ready: false, restartCount: 0, state: { terminated: { exitCode: 2 } } };
    assert.equal(summary(pod(spec, { phase: 'Pending', initContainerStatuses: [failed] }))[1], 'Init:ExitCode:2');
    const killed = { name: 'i1', ready: false, restartCount: 0, state: { terminated: { exitCode: 137, signal: 9 } } };
    assert.equal(summary(pod(spec, { phase: 'Pending', initContainerStatuses: [killed] }))[1], 'Init:Signal:9');
  });

  it('reports Running or NotReady while a finished container has a running neighbour', () => {
    const completed = { name: 'a', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } };
    const statuses = [completed, running('b', true)];
    assert.equal(summary(pod(two, { phase: 'Running', containerStatuses: statuses, conditions: [{ type: 'Ready', status: 'True' }] }))[1], 'Running');
    assert.equal(summary(pod(two, { phase: 'Running', containerStatuses: statuses, conditions: [{ type: 'Ready', status: 'False' }] }))[1], 'NotReady');
  });

  it('counts started sidecars as containers and their restarts', () => {
    const spec = { initContainers: [{ name: 'side', restartPolicy: 'Always' }], containers: [{ name: 'c' }] };
    const side = { name: 'side', ready: true, started: true, restartCount: 2, state: { running: {} } };
    const p = pod(spec, { phase: 'Running', initContainerStatuses: [side], containerStatuses: [running('c', true)], conditions: [{ type: 'Initialized', status: 'True' }] });
    assert.deepEqual(summary(p), ['2/2', 'Running', '2']);
  });

  it('marks deleting pods Terminating, or Unknown when their node was lost', () => {
    const status = { phase: 'Running', containerStatuses: [running('c', true)] };
    assert.equal(summary(pod(one, status, { deletionTimestamp: ago(0) }))[1], 'Terminating');
    assert.equal(summary(pod(one, { ...status, reason: 'NodeLost' }, { deletionTimestamp: ago(0) }))[1], 'Unknown');
    const done = { phase: 'Succeeded', containerStatuses: [{ name: 'c', ready: false, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed' } } }] };
    assert.equal(summary(pod(one, done, { deletionTimestamp: ago(0) }))[1], 'Completed');
  });

  it('shows SchedulingGated from the PodScheduled condition', () => {
    const p = pod(one, { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated' }] });
    assert.equal(summary(p)[1], 'SchedulingGated');
  });

  it('prints the wide cells: IP, node, nominated node, readiness gates', () => {
    const spec = { ...one, nodeName: 'n1', readinessGates: [{ conditionType: 'a' }, { conditionType: 'b' }] };
    const p = pod(spec, { phase: 'Running', podIPs: [{ ip: '10.244.1.5' }], conditions: [{ type: 'a', status: 'True' }, { type: 'b', status: 'False' }] });
    assert.deepEqual(cells(p).slice(4), ['60m', '10.244.1.5', 'n1', '<none>', '1/2']);
    assert.deepEqual(cells(pod(one, { phase: 'Pending' })).slice(5), ['<none>', '<none>', '<none>', '<none>']);
  });

  it('marks finished pods with the Completed row condition', () => {
    const t = printTable(printerFor('', 'pods'), [pod(one, { phase: 'Succeeded' }), pod(one, { phase: 'Failed' }), pod(one, { phase: 'Running' })], NOW);
    assert.deepEqual(t.rows[0]!.conditions, [{ type: 'Completed', status: 'True', reason: 'Succeeded', message: 'The pod has completed successfully.' }]);
    assert.deepEqual(t.rows[1]!.conditions, [{ type: 'Completed', status: 'True', reason: 'Failed', message: 'The pod failed.' }]);
    assert.equal(t.rows[2]!.conditions, undefined);
  });
});
