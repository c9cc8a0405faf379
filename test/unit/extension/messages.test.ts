import { strict as assert } from 'node:assert';
import { ADMIN, describeIdentity, identitySpec, parseIdentity } from '../../../src/extension/identity';
import { commandHeader, formatResults } from '../../../src/extension/messages';
import { statusBarText, statusBarTooltip, stepText, type ClusterSummary } from '../../../src/extension/status-text';

describe('what the user reads', () => {
  it('kubectl lines in the output, a short summary in the notification', () => {
    assert.deepEqual(formatResults([{ ok: true, message: 'deployment.apps/web created' }, { ok: true, message: 'service/web unchanged' }], 'error: no objects passed to apply'), {
      lines: ['deployment.apps/web created', 'service/web unchanged'],
      summary: 'deployment.apps/web created, service/web unchanged',
      severity: 'info',
    });
    const many = ['a', 'b', 'c', 'd'].map((n, i) => ({ ok: true, message: `configmap/${n} ${i < 2 ? 'created' : 'unchanged'}` }));
    assert.equal(formatResults(many, '').summary, '4 objects: 2 created, 2 unchanged');
    const dry = [1, 2, 3, 4].map((n) => ({ ok: true, message: `configmap/c${n} created (server dry run)` }));
    assert.equal(formatResults(dry, '').summary, '4 objects: 4 created (server dry run)');
  });

  it('warnings as kubectl prints them before the line, and a warning notification', () => {
    const r = formatResults([{ ok: true, message: 'deployment.apps/web configured', warnings: ['unknown field "spec.replica"'] }], '');
    assert.deepEqual(r.lines, ['Warning: unknown field "spec.replica"', 'deployment.apps/web configured']);
    assert.equal(r.severity, 'warning');
    assert.equal(r.summary, 'deployment.apps/web configured (with warnings: see the KubeSim output)');
  });

  it('errors in kubectl text; the notification says how many failed, on one line', () => {
    const invalid = 'The Deployment "web" is invalid: \n* spec.replicas: Invalid value: -1: must be greater than or equal to 0\n* metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain';
    const r = formatResults([{ ok: true, message: 'service/web created' }, { ok: false, message: invalid }], '');
    assert.deepEqual(r.lines, ['service/web created', invalid]);
    assert.equal(r.severity, 'error');
    assert.equal(r.summary, '1 of 2 failed: The Deployment "web" is invalid: * spec.replicas: Invalid value: -1: must be greater than or equal to 0 * metadata.name: Invalid value: "Web": a lowercase RFC 1123 subdomain');
    assert.deepEqual(formatResults([], 'error: no objects passed to apply'), { lines: ['error: no objects passed to apply'], summary: 'error: no objects passed to apply', severity: 'error' });
  });

  it('the command line with the identity it ran as', () => {
    assert.equal(commandHeader('kubectl apply -f web.yaml', ADMIN), '$ kubectl apply -f web.yaml    # as kubernetes-admin (system:masters)');
    assert.equal(commandHeader('kubectl delete -f web.yaml', { username: 'system:serviceaccount:ci:deployer', groups: [] }), '$ kubectl delete -f web.yaml    # as service account ci/deployer');
  });

  it('the status bar: revision, nodes, pods, clock', () => {
    const s: ClusterSummary = { revision: 412, nodes: { total: 4, ready: 4 }, pods: { running: 6, pending: 1, failed: 0 }, clock: 'running', speed: 0.25, time: Date.parse('2025-01-01T00:05:12Z'), user: 'jane' };
    assert.equal(statusBarText(s), '$(server-environment) rev 412 · 4 nodes · 6 running, 1 pending · $(play) x0.25');
    assert.equal(statusBarText({ ...s, clock: 'paused', nodes: { total: 4, ready: 3 } }), '$(server-environment) rev 412 · 3/4 nodes ready · 6 running, 1 pending · $(debug-pause) paused');
    assert.equal(statusBarText(undefined), '$(server-environment) KubeSim');
    assert.equal(
      statusBarTooltip(s),
      'KubeSim: simulated Kubernetes 1.35\netcd revision 412\nNodes: 4 (4 Ready)\nPods: 6 running, 1 pending, 0 failed\nClock: running at x0.25, virtual time 2025-01-01T00:05:12Z\nUser: jane\nClick to open the control plane.',
    );
  });

  it('what a step to the next change did', () => {
    const time = Date.parse('2025-01-01T00:10:00Z');
    const first = { revision: 190, actor: 'admin', text: 'create deployments.apps default/web' };
    assert.equal(stepText({ stopped: 'change', elapsed: 0, time, changes: 1, first }), 'KubeSim: +0ms: rev 190 admin create deployments.apps default/web');
    assert.equal(stepText({ stopped: 'change', elapsed: 40_000, time, changes: 3, first: { actor: 'node-lifecycle-controller', text: 'reconcile kubesim-worker' } }), 'KubeSim: +40s: node-lifecycle-controller reconcile kubesim-worker (and 2 more changes)');
    assert.equal(stepText({ stopped: 'horizon', elapsed: 600_000, time, changes: 0 }), 'KubeSim: no change in the next 10m of virtual time (heartbeats only); now 2025-01-01T00:10:00Z');
    assert.equal(stepText({ stopped: 'idle', elapsed: 0, time, changes: 0 }), 'KubeSim: nothing is pending');
  });
});

describe('identities', () => {
  it('reads the admin, users with groups, service accounts and nodes', () => {
    assert.deepEqual(parseIdentity(''), { ok: true, value: ADMIN });
    assert.deepEqual(parseIdentity('kubernetes-admin'), { ok: true, value: ADMIN });
    assert.deepEqual(parseIdentity('jane'), { ok: true, value: { username: 'jane', groups: ['system:authenticated'] } });
    assert.deepEqual(parseIdentity('jane:dev, qa'), { ok: true, value: { username: 'jane', groups: ['dev', 'qa', 'system:authenticated'] } });
    assert.deepEqual(parseIdentity('system:serviceaccount:ci:deployer'), { ok: true, value: { username: 'system:serviceaccount:ci:deployer', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'] } });
    assert.deepEqual(parseIdentity('system:node:kubesim-worker'), { ok: true, value: { username: 'system:node:kubesim-worker', groups: ['system:nodes', 'system:authenticated'] } });
    assert.deepEqual(parseIdentity('system:serviceaccount:Bad_NS:x'), { ok: false, error: '"system:serviceaccount:Bad_NS:x" is not a service account name: use system:serviceaccount:<namespace>:<name>' });
    assert.deepEqual(parseIdentity(':dev'), { ok: false, error: '":dev" names no user: use <name> or <name>:<group>,<group>' });
  });

  it('writes them back as the setting and describes them', () => {
    for (const spec of ['kubernetes-admin', 'jane', 'jane:dev,qa', 'system:serviceaccount:ci:deployer']) {
      const id = parseIdentity(spec);
      assert.ok(id.ok);
      assert.equal(identitySpec(id.value), spec);
    }
    assert.equal(describeIdentity(ADMIN), 'kubernetes-admin (system:masters)');
    assert.equal(describeIdentity({ username: 'jane', groups: ['system:authenticated'] }), 'jane');
  });
});
