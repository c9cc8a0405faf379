import { strict as assert } from 'node:assert';
import { createCluster, type Cluster } from '../../../src/engine/cluster';
import { objectAtRevision, objectYaml } from '../../../src/extension/panel/time-travel';
import type { ApiRequestRecord } from '../../../src/engine/trace/apiserver';
import type { GetRevisionMessage } from '../../../src/protocol/panel';
import type { RevisionRecord } from '../../../src/engine/trace/revision';

describe('panel time travel: an object at a past revision, through the API server', () => {
  let cluster: Cluster;
  const ask = (name: string): GetRevisionMessage => ({ type: 'getRevision', requestId: 1, revision: 1, group: '', resource: 'configmaps', namespace: 'default', name });

  beforeEach(async () => {
    cluster = await createCluster();
  });
  afterEach(async () => {
    await cluster.close();
  });

  async function history(): Promise<RevisionRecord[]> {
    const first = cluster.trace.next;
    const cm = cluster.client().resource({ group: '', version: 'v1', resource: 'configmaps' }, 'default');
    await cm.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: 'slow' } });
    await cm.patch('settings', 'merge', { data: { mode: 'fast' } });
    await cm.delete('settings');
    await cluster.settle();
    return cluster.trace.since(first).filter((r): r is RevisionRecord => r.type === 'store.revision' && r.name === 'settings');
  }

  it('reads each version at its revision and nothing before the creation or at the deletion', async () => {
    const [created, updated, deleted] = await history();
    const client = cluster.client();
    const at = (rev: number) => objectAtRevision(client, ask('settings'), rev);
    assert.equal((await at(created!.revision - 1)).state, 'absent');
    const v1 = await at(created!.revision);
    assert.equal(v1.state, 'found');
    assert.match(v1.state === 'found' ? v1.yaml : '', /data:\n {2}mode: slow\n/);
    const v2 = await at(updated!.revision);
    assert.match(v2.state === 'found' ? v2.yaml : '', /mode: fast/);
    assert.doesNotMatch(v2.state === 'found' ? v2.yaml : '', /managedFields/, 'bookkeeping is left out');
    assert.deepEqual(await at(deleted!.revision), { state: 'absent', revision: deleted!.revision });
  });

  it('reads with a LIST at resourceVersion=<rev>, resourceVersionMatch=Exact, by metadata.name, as the client it is given', async () => {
    const [created] = await history();
    const first = cluster.trace.next;
    await objectAtRevision(cluster.client(), ask('settings'), created!.revision);
    const [read] = cluster.trace.since(first).filter((r): r is ApiRequestRecord => r.type === 'api.request');
    assert.deepEqual([read?.verb, read?.resource, read?.namespace, read?.code, read?.user], ['list', 'configmaps', 'default', 200, 'kubernetes-admin']);
  });

  it('says "compacted" when compaction removed that history (410 Gone)', async () => {
    const [created, updated] = await history();
    const first = cluster.trace.next;
    await cluster.api.compact();
    const compactedTo = await cluster.api.compact();
    const compactions = cluster.trace.since(first).filter((r) => r.type === 'store.compaction');
    assert.deepEqual(
      compactions.map((r) => r.type === 'store.compaction' && [r.component, r.revision]),
      [['etcd', compactedTo]],
      'the compaction is a trace record: the timeline shows it',
    );
    const gone = await objectAtRevision(cluster.client(), ask('settings'), created!.revision);
    assert.equal(gone.state, 'compacted');
    assert.match(gone.state === 'compacted' ? gone.message : '', /too old|compacted/);
    assert.equal((await objectAtRevision(cluster.client(), ask('settings'), updated!.revision)).state, 'compacted');
  });

  it('reports the API server\'s refusal and unknown resources as errors, not crashes', async () => {
    const denied = await objectAtRevision(cluster.client({ username: 'alice', uid: '', groups: ['system:authenticated'], extra: {} }), ask('settings'), 5);
    assert.equal(denied.state, 'error');
    // A list by metadata.name is authorized (and refused) for that name, as the RequestInfoResolver does.
    assert.equal(denied.state === 'error' ? `${denied.code} ${denied.message}` : '', '403 configmaps "settings" is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"');
    const unknown = await objectAtRevision(cluster.client(), { ...ask('x'), resource: 'widgets' }, 5);
    assert.deepEqual(unknown, { state: 'error', revision: 5, code: 404, message: 'the server doesn\'t have a resource type "widgets"' });
    assert.deepEqual(await objectAtRevision(cluster.client(), ask('x'), 0), { state: 'absent', revision: 0 });
  });

  it('escapes names for the field selector', async () => {
    const roles = cluster.client().resource({ group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' });
    const created = await roles.create({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'a,b=c' }, rules: [] });
    const rev = Number(created.metadata.resourceVersion);
    const found = await objectAtRevision(cluster.client(), { type: 'getRevision', requestId: 1, revision: rev, group: 'rbac.authorization.k8s.io', resource: 'clusterroles', name: 'a,b=c' }, rev);
    assert.equal(found.state, 'found');
  });

  it('YAML without managedFields', () => {
    assert.equal(objectYaml({ kind: 'ConfigMap', metadata: { name: 'a', managedFields: [{ manager: 'kubectl' }] } }), 'kind: ConfigMap\nmetadata:\n  name: a\n');
  });
});
