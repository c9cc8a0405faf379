import { strict as assert } from 'node:assert';
import { passes, requestsList, revisionsList, schedulerList, controllersList } from '../../../webview/model/lists';
import { reconcileRow, requestRow, revisionRow, schedulerRow, REQUEST_COLUMNS, REVISION_COLUMNS, RECONCILE_COLUMNS, SCHEDULER_COLUMNS } from '../../../webview/model/rows';
import { formatDuration, formatTime } from '../../../webview/model/format';
import { initialState } from '../../../webview/model/state';
import { attempt, binding, compaction, reconcile, request, revision, T0 } from './records';

const KINDS = { 'apps/deployments': 'Deployment', '/pods': 'Pod' };

describe('panel rows: records as list rows', () => {
  it('formats virtual time and delays', () => {
    assert.equal(formatTime(T0 + 62_345), '00:01:02.345');
    assert.equal(formatDuration(5), '5ms');
    assert.equal(formatDuration(0.09765625), '0.098ms');
    assert.equal(formatDuration(1500), '1.5s');
    assert.equal(formatDuration(150_000), '2m30s');
  });

  it('a revision: revision, time, operation, kind, key, short actor, change', () => {
    const r = revision(57, { operation: 'update', actor: 'system:serviceaccount:kube-system:deployment-controller', change: 'spec.replicas: 3 → 5' });
    assert.deepEqual(revisionRow(r, KINDS), {
      cells: ['57', '00:00:00.057', 'update', 'Deployment', '/registry/deployments/default/web', 'deployment-controller', 'spec.replicas: 3 → 5'],
      tone: undefined,
    });
    assert.equal(revisionRow(revision(58, { group: 'example.com', resource: 'widgets' }), KINDS).cells[3], 'widgets.example.com', 'unknown kinds read as resource.group');
    assert.equal(revisionRow(r, KINDS).cells.length, REVISION_COLUMNS.length);
  });

  it('a compaction is a row of the timeline, marked', () => {
    assert.deepEqual(revisionRow(compaction(90, 80), KINDS), { cells: ['80', '00:00:00.090', 'compact', '', '', '', 'history below revision 80 compacted'], tone: 'compaction' });
  });

  it('a request: failures carry the Status reason and message', () => {
    const ok = requestRow(request(12, { revision: 57 }));
    assert.deepEqual(ok.cells, ['#12', '00:00:00.012', 'admin', 'create', 'deployments.apps', 'default/web', '201', 'revision 57']);
    assert.equal(ok.tone, undefined);
    const denied = requestRow(
      request(13, {
        user: 'alice',
        code: 403,
        reason: 'Forbidden',
        message: 'deployments.apps is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "default"',
      }),
    );
    assert.equal(denied.tone, 'failed');
    assert.equal(denied.cells[7], 'Forbidden: deployments.apps is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "default"');
    assert.equal(requestRow(request(14, { subresource: 'status', verb: 'patch', user: 'system:node:node-1' })).cells.slice(2, 5).join(' '), 'kubelet/node-1 patch deployments.apps/status');
    assert.equal(requestRow(request(15, { dryRun: true })).cells[3], 'create (dry)');
    assert.equal(requestRow(request(16, { verb: 'list', name: undefined, namespace: undefined, code: 200 })).cells[5], '');
    assert.equal(ok.cells.length, REQUEST_COLUMNS.length);
  });

  it('a reconcile: trigger with its revision, requests sent, outcome with requeue and backoff', () => {
    assert.deepEqual(reconcileRow(reconcile(20, { revision: 57, requests: [21, 22] })).cells, ['00:00:00.020', 'deployment', 'default/web', 'event (rev 57)', '2', 'done']);
    assert.equal(reconcileRow(reconcile(21, { trigger: 'requeue', outcome: 'requeue-after', requeueAfterMs: 1000 })).cells[5], 'requeue after 1s');
    const failed = reconcileRow(reconcile(22, { trigger: 'retry', outcome: 'error', error: 'the object has been modified', backoffMs: 10, retries: 2 }));
    assert.equal(failed.cells[5], 'error: the object has been modified (retry in 10ms (requeues: 2))');
    assert.equal(failed.tone, 'conflict', 'a conflict is optimistic concurrency at work, retried: not painted as a failure');
    const dropped = reconcileRow(reconcile(23, { outcome: 'error', error: 'x', dropped: true, retries: 15 }));
    assert.equal(dropped.cells[5], 'error: x (dropped after max retries)');
    assert.equal(dropped.tone, 'failed');
    const conflict = requestRow(request(24, { verb: 'update', subresource: 'status', code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again' }));
    assert.deepEqual([conflict.tone, conflict.cells[7]!.endsWith('(the writer re-reads and retries)')], ['conflict', true]);
    assert.equal(requestRow(request(25, { userAgent: 'kubesim-vscode/v1.35.0 (linux/amd64) kubernetes/unknown/control-plane-panel', verb: 'list' })).cells[2], 'control-plane panel (its own read)', 'the panel\u2019s time-travel reads are labelled as its own, never as the user\u2019s');
    assert.equal(reconcileRow(reconcile(20)).cells.length, RECONCILE_COLUMNS.length);
  });

  it('scheduler records: attempts with their node counts and message, bindings', () => {
    assert.deepEqual(schedulerRow(attempt(30)).cells, ['00:00:00.030', 'default/web-1', 'attempt 1', 'scheduled', 'node-2', '2/3 feasible', '']);
    const failed = schedulerRow(attempt(31, { outcome: 'unschedulable', node: undefined, feasibleNodes: 0, message: '0/3 nodes are available: 3 Insufficient cpu.' }));
    assert.deepEqual(failed.cells.slice(3), ['unschedulable', '', '0/3 feasible', '0/3 nodes are available: 3 Insufficient cpu.']);
    assert.equal(failed.tone, 'failed');
    assert.deepEqual(schedulerRow(binding(32)).cells, ['00:00:00.032', 'default/web-1', 'binding', 'bound', 'node-2', '', '']);
    assert.equal(schedulerRow(attempt(30)).cells.length, SCHEDULER_COLUMNS.length);
  });
});

describe('panel lists: which records each holds and how filters match', () => {
  const f = initialState().filters;

  it('each list takes its own record types', () => {
    const all = [request(1), revision(2), compaction(3, 2), reconcile(4), attempt(5), binding(6)];
    assert.deepEqual(all.filter((r) => revisionsList.accepts(r)).map((r) => r.id), [2, 3]);
    assert.deepEqual(all.filter((r) => requestsList.accepts(r)).map((r) => r.id), [1]);
    assert.deepEqual(all.filter((r) => controllersList.accepts(r)).map((r) => r.id), [4]);
    assert.deepEqual(all.filter((r) => schedulerList.accepts(r)).map((r) => r.id), [5, 6]);
  });

  it('revision filters match namespace, kind and actor exactly; compactions always show', () => {
    const pod = revision(2, { group: '', resource: 'pods', key: '/registry/pods/kube-system/p', namespace: 'kube-system', name: 'p', actor: 'system:kube-scheduler' });
    const node = revision(3, { group: '', resource: 'nodes', key: '/registry/minions/n', namespace: undefined, name: 'n', actor: undefined });
    const filters = { ...f.revisions, namespace: 'kube-system' };
    assert.equal(passes(revisionsList, pod, filters, KINDS), true);
    assert.equal(passes(revisionsList, revision(4), filters, KINDS), false);
    assert.equal(passes(revisionsList, compaction(5, 3), filters, KINDS), true);
    assert.equal(passes(revisionsList, pod, { ...f.revisions, kind: 'Pod', actor: 'system:kube-scheduler' }, KINDS), true);
    assert.equal(passes(revisionsList, pod, { ...f.revisions, kind: 'Deployment' }, KINDS), false);
    assert.deepEqual(revisionsList.values(node, KINDS), { namespace: '(cluster-scoped)', kind: 'nodes', actor: '(none)' });
    assert.equal(passes(revisionsList, node, { ...f.revisions, namespace: '(cluster-scoped)' }, KINDS), true);
  });

  it('request filters: user, verb, failed or succeeded', () => {
    const denied = request(1, { user: 'alice', code: 403 });
    assert.equal(passes(requestsList, denied, { ...f.requests, outcome: 'failed' }, KINDS), true);
    assert.equal(passes(requestsList, request(2), { ...f.requests, outcome: 'failed' }, KINDS), false);
    assert.equal(passes(requestsList, denied, { ...f.requests, user: 'alice', verb: 'create' }, KINDS), true);
    assert.equal(passes(requestsList, denied, { ...f.requests, verb: 'delete' }, KINDS), false);
  });

  it('the scheduler pod filter is free text, case-insensitive', () => {
    assert.equal(passes(schedulerList, attempt(1), { ...f.scheduler, pod: 'WEB-' }, KINDS), true);
    assert.equal(passes(schedulerList, attempt(1), { ...f.scheduler, pod: 'db' }, KINDS), false);
    assert.equal(passes(schedulerList, attempt(1), { ...f.scheduler, outcome: 'unschedulable' }, KINDS), false);
  });
});
