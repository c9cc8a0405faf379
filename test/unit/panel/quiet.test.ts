/**
 * Quiet by default: which records the record views and the Flow leave out unless asked (Lease
 * renewals and node status updates, Event writes, reads, what another apply caused), how they
 * say so, and the Flow's lanes: what is hidden is not drawn, idle lanes start folded, the user's
 * fold or unfold wins, a 409 that a later sync got past is drawn as retried.
 */
import { strict as assert } from 'node:assert';
import { buildFlow, causeIndex } from '../../../webview/model/flow';
import { hiddenReason, hiddenText, QUIET_DEFAULTS, restoreQuiet } from '../../../webview/model/quiet';
import type { PanelRecord } from '../../../src/protocol/panel';
import { reconcile, request, revision } from './records';

const lease = request(1, { verb: 'update', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'n1', user: 'system:node:n1', code: 200 });
const eventWrite = request(2, { resource: 'events', group: '', user: 'system:serviceaccount:kube-system:deployment-controller' });
const read = request(3, { verb: 'list', code: 200, userAgent: 'kubesim-vscode/v1.35.0 (linux/amd64) kubernetes/unknown/control-plane-panel' });
const apply = request(4, { verb: 'patch', revision: 10 });
const stored = revision(5, { cause: 4, revision: 10 });
const other = request(6, { verb: 'patch', name: 'other', revision: 11 });
const all: PanelRecord[] = [lease, eventWrite, read, apply, stored, other];
const get = (id: number) => all.find((r) => r.id === id);

describe('quiet by default', () => {
  it('hides heartbeats, Event writes and reads by default, and says why', () => {
    assert.deepEqual(all.map((r) => hiddenReason(r, QUIET_DEFAULTS, get, undefined) ?? 'shown'), ['heartbeat', 'event', 'read', 'shown', 'shown', 'shown']);
    const everything = { heartbeats: false, events: false, reads: false, applyOnly: false };
    assert.ok(all.every((r) => hiddenReason(r, everything, get, undefined) === undefined), 'everything on request');
  });

  it('"this apply only" keeps the followed apply\u2019s causal closure', () => {
    const closure = new Set([4, 5]);
    const only = { ...QUIET_DEFAULTS, applyOnly: true };
    assert.deepEqual(all.map((r) => hiddenReason(r, only, get, closure) ?? 'shown'), ['other apply', 'other apply', 'other apply', 'shown', 'shown', 'other apply']);
  });

  it('counts what it hid in words, and restores only what it understands', () => {
    assert.equal(hiddenText(new Map([['heartbeat', 1204], ['read', 1]])), '1,204 heartbeats, 1 read hidden');
    assert.equal(hiddenText(new Map()), '');
    assert.deepEqual(restoreQuiet({ heartbeats: false, reads: 'yes', bogus: true }), { ...QUIET_DEFAULTS, heartbeats: false });
    assert.deepEqual(restoreQuiet(null), QUIET_DEFAULTS);
  });
});

describe('the Flow, quiet', () => {
  const chain: PanelRecord[] = [
    request(10, { verb: 'patch', revision: 100 }),
    revision(11, { cause: 10, revision: 100 }),
    reconcile(12, { cause: 11, requests: [13, 14], outcome: 'error', error: 'Operation cannot be fulfilled on deployments.apps "web": the object has been modified' }),
    request(13, { cause: 12, verb: 'update', subresource: 'status', code: 409, reason: 'Conflict', user: 'system:serviceaccount:kube-system:deployment-controller' }),
    request(14, { cause: 12, resource: 'events', group: '', user: 'system:serviceaccount:kube-system:deployment-controller' }),
    reconcile(15, { cause: 11, component: 'taint-eviction-pods-controller', controller: 'taint-eviction-pods' }),
    reconcile(16, { cause: 11, requests: [] }),
  ];
  const hide = (r: PanelRecord) => hiddenReason(r, QUIET_DEFAULTS, (id) => chain.find((x) => x.id === id), undefined) !== undefined;

  it('leaves out what is hidden, folds lanes that only held idle syncs, draws the retried 409 as retried', () => {
    const flow = buildFlow(chain[0]!, causeIndex(chain), { hide });
    assert.equal(flow.hidden, 1, 'the Event write');
    assert.deepEqual(flow.lanes.map((l) => [l.title, l.collapsed]), [['API server', false], ['etcd', false], ['deployment-controller', false], ['taint-eviction-pods-controller', true]]);
    assert.equal(flow.folded, 1);
    assert.deepEqual(flow.steps.filter((s) => s.retried).map((s) => s.record.id), [12, 13], 'the failed sync and its 409, retried by sync #16');
  });

  it('the user\u2019s fold or unfold wins', () => {
    const flow = buildFlow(chain[0]!, causeIndex(chain), { hide, lanes: { 'controller/taint-eviction-pods': false, etcd: true } });
    assert.deepEqual(flow.lanes.map((l) => l.collapsed), [false, true, false, false]);
    assert.ok(flow.steps.some((s) => s.record.id === 15) && !flow.steps.some((s) => s.record.id === 11));
  });
});
