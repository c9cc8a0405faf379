/**
 * retriedRecords: a failed sync retried by a later sync of the same key, and a request a sync
 * retried itself (updateReplicaSetStatus: 409, a fresh GET, the status written again).
 */
import { strict as assert } from 'node:assert';
import { retriedRecords } from '../../../src/engine/timeline/retries';
import type { TraceRecord } from '../../../src/engine/trace/types';

let nextId = 1;
function request(cause: number | undefined, verb: string, code: number, name = 'web-1', subresource: string | undefined = 'status'): TraceRecord {
  return { id: nextId++, time: 0, type: 'api.request', component: 'kube-apiserver', cause, user: 'system:serviceaccount:kube-system:replicaset-controller', groups: [], verb, group: 'apps', version: 'v1', resource: 'replicasets', subresource, namespace: 'default', name, dryRun: false, code, stages: [] } as unknown as TraceRecord;
}
function reconcile(id: number, outcome: 'done' | 'error', key = 'default/web-1', retryOf?: number): TraceRecord {
  return { id, time: 0, type: 'controller.reconcile', component: 'replicaset-controller', controller: 'replicaset', key, trigger: 'event', requests: [], outcome, ...(retryOf ? { retryOf } : {}) } as unknown as TraceRecord;
}

describe('retriedRecords', () => {
  beforeEach(() => {
    nextId = 100;
  });

  it('a 409 the sync itself retried (a fresh GET, the same status update, 200) is retried', () => {
    const sync = reconcile(1, 'done');
    const conflict = request(1, 'update', 409);
    const get = request(1, 'get', 200, 'web-1', undefined);
    const retry = request(1, 'update', 200);
    assert.deepEqual([...retriedRecords([sync, conflict, get, retry])], [conflict.id]);
  });

  it('a 409 with no successful same request after it stays a failure', () => {
    const sync = reconcile(1, 'done');
    const ok = request(1, 'update', 200);
    const conflict = request(1, 'update', 409);
    const other = request(1, 'update', 200, 'web-2');
    const otherSync = request(2, 'update', 200);
    assert.deepEqual([...retriedRecords([sync, ok, conflict, other, otherSync])], []);
  });

  it('a failed sync followed by a successful sync of the same key: the sync and its failed requests', () => {
    const failed = reconcile(1, 'error');
    const conflict = request(1, 'update', 409);
    const later = reconcile(2, 'done');
    const unrelated = reconcile(3, 'error', 'default/other');
    assert.deepEqual(new Set(retriedRecords([failed, conflict, later, unrelated])), new Set([1, conflict.id]));
  });
});
