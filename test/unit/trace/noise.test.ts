/**
 * What the views treat as the cluster's pulse (heartbeats), as Event traffic and as reads, and
 * which program sent a request: table-driven over records as the engine writes them, then over
 * a real cluster's trace.
 */
import { strict as assert } from 'node:assert';
import { createCluster } from '../../../src/engine/cluster';
import { applyManifestText } from '../../../src/engine/kubectl/apply';
import { isEvent, isHeartbeat, isPanelRequest, isRead, requestOrigin } from '../../../src/engine/timeline/noise';
import type { TraceRecord } from '../../../src/engine/trace/types';
import { readFileSync } from 'node:fs';
import { reconcile, request, revision } from '../panel/records';

const KUBELET = 'system:node:kubesim-worker';

describe('trace noise: heartbeats, Events, reads', () => {
  const nodeRev = revision(2, { group: '', resource: 'nodes', key: '/registry/minions/kubesim-worker', name: 'kubesim-worker', operation: 'update', actor: KUBELET, change: 'status.conditions[0].lastHeartbeatTime: …' });
  const nodeBack = revision(3, { ...nodeRev, id: 3, conditions: { Ready: 'True' } });
  const lookup = (id: number): TraceRecord | undefined => ({ 2: nodeRev, 3: nodeBack })[id];
  const cases: [string, TraceRecord, { heartbeat: boolean; event: boolean; read: boolean }][] = [
    ['a Lease renewal', request(1, { verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'kubesim-worker', user: KUBELET, code: 200 }), { heartbeat: true, event: false, read: false }],
    ['its revision', revision(1, { group: 'coordination.k8s.io', resource: 'leases', operation: 'update' }), { heartbeat: true, event: false, read: false }],
    ['a kubelet\'s node status patch', request(1, { verb: 'patch', group: '', resource: 'nodes', subresource: 'status', namespace: undefined, name: 'kubesim-worker', user: KUBELET, code: 200 }), { heartbeat: true, event: false, read: false }],
    ['the kubelet\'s get of its node', request(1, { verb: 'get', group: '', resource: 'nodes', namespace: undefined, name: 'kubesim-worker', user: KUBELET, code: 200 }), { heartbeat: true, event: false, read: true }],
    ['a node revision that only re-stamps', nodeRev, { heartbeat: true, event: false, read: false }],
    ['a node revision back to Ready', nodeBack, { heartbeat: false, event: false, read: false }],
    ['the node lifecycle check of a heartbeat', reconcile(4, { cause: 2, controller: 'node-lifecycle', key: 'kubesim-worker' }), { heartbeat: true, event: false, read: false }],
    ['the node lifecycle check of a node back to Ready', reconcile(4, { cause: 3, controller: 'node-lifecycle', key: 'kubesim-worker' }), { heartbeat: false, event: false, read: false }],
    ['a kubelet registering its node', request(1, { verb: 'create', group: '', resource: 'nodes', user: KUBELET }), { heartbeat: false, event: false, read: false }],
    ['an Event write', request(1, { resource: 'events', group: '', user: 'system:serviceaccount:kube-system:deployment-controller' }), { heartbeat: false, event: true, read: false }],
    ['an events.k8s.io write', request(1, { resource: 'events', group: 'events.k8s.io', user: 'system:kube-scheduler' }), { heartbeat: false, event: true, read: false }],
    ['an Event revision', revision(1, { resource: 'events', group: '' }), { heartbeat: false, event: true, read: false }],
    ['a list', request(1, { verb: 'list', code: 200 }), { heartbeat: false, event: false, read: true }],
    ['a watch', request(1, { verb: 'watch', code: 200 }), { heartbeat: false, event: false, read: true }],
    ['discovery', request(1, { verb: 'get', path: '/apis', group: '', resource: '', name: undefined, namespace: undefined }), { heartbeat: false, event: false, read: true }],
    ['the user\'s apply', request(1, { verb: 'patch' }), { heartbeat: false, event: false, read: false }],
  ];
  for (const [name, record, want] of cases) {
    it(name, () => {
      assert.deepEqual({ heartbeat: isHeartbeat(record, lookup), event: isEvent(record), read: isRead(record) }, want);
    });
  }

  it('names the program behind a request from its User-Agent', () => {
    const agent = (userAgent: string | undefined, user = 'kubernetes-admin') => requestOrigin(request(1, { userAgent, user }));
    assert.equal(agent('kubesim-vscode/v1.35.0 (linux/amd64) kubernetes/unknown/control-plane-panel'), 'panel');
    assert.equal(agent('kubesim-vscode/v1.35.0 (linux/amd64) kubernetes/unknown'), 'editor');
    assert.equal(agent('kubectl/v1.32.0 (linux/amd64) kubernetes/abc'), 'kubectl');
    assert.equal(agent('kube-scheduler/v1.35.0 (linux/amd64) kubernetes/unknown/scheduler', 'system:kube-scheduler'), 'component');
    assert.equal(agent(undefined), 'other');
    assert.ok(isPanelRequest(request(1, { userAgent: 'kubesim-vscode/v1.35.0 (linux/amd64) kubernetes/unknown/control-plane-panel' })));
  });

  it('in a real cluster, the settled apply leaves only heartbeats behind', async () => {
    const cluster = await createCluster({ seed: 'noise' });
    try {
      // past metrics-server's start-up, whose APIService turns Available 15-20 s in
      await cluster.advance(20_000);
      await applyManifestText(cluster.client(), 'web.yaml', readFileSync('examples/web.yaml', 'utf8'));
      await cluster.settle();
      const quiet = cluster.trace.next;
      await cluster.advance(60_000);
      const lookup2 = (id: number) => cluster.trace.get(id);
      const left = cluster.trace.since(quiet).filter((r) => !isHeartbeat(r, lookup2) && !isRead(r) && !isEvent(r) && r.type !== 'store.compaction');
      // The deployment controller's progress check (a requeue that changes nothing) is all that is left.
      assert.ok(left.every((r) => r.type === 'controller.reconcile' && r.requests.length === 0), left.map((r) => `${r.type} ${r.component}`).join(', '));
      const requests = cluster.trace.since(quiet).filter((r) => r.type === 'api.request');
      assert.ok(requests.length > 0 && requests.every((r) => r.type === 'api.request' && r.userAgent !== undefined), 'every request names its User-Agent');
    } finally {
      await cluster.close();
    }
  });
});
