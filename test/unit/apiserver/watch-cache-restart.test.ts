import { strict as assert } from 'node:assert';
import { createCluster } from '../../../src/engine/cluster';
import type { EtcdClient } from '../../../src/engine/store/etcdserver';
import { prefixEnd } from '../../../src/engine/store/types';
import type { ServerParts } from '../../../src/engine/apiserver/context';

// kube-apiserver's cacher: when its etcd watch fails (here: moved to another member after the
// member it was on stopped, from a revision compacted meanwhile, which etcd cancels), the
// reflector lists again and the cacher ends its watchers, who list again (cacher.go startCaching).
describe('a watch cache whose etcd watch etcd cancels', () => {
  it('lists again, ends its watchers with 410 Expired, and keeps up with etcd afterwards (the controllers too)', async () => {
    const cluster = await createCluster({ seed: 'watch-cache-restart' });
    await cluster.advance(3000);
    const etcd = cluster.etcd!;
    const store = cluster.store as EtcdClient;
    // The API server's storages (its parts, as the request context sees them).
    const storage = (cluster.server as unknown as ServerParts).storage;
    const caches = () => cluster.server.watchCacheStatus().resources.length;
    const etcdWatches = () => etcd.status().reduce((n, m) => n + (m.state === 'running' ? m.watchers : 0), 0);
    assert.equal(etcdWatches(), caches(), 'one etcd watch per cache');
    // A watch of configmaps through the API server, whatever member its cache's watch is on.
    const cms = cluster.client().resource({ group: '', version: 'v1', resource: 'configmaps' }, 'default');
    const seen: string[] = [];
    const handle = await cms.watch({}, (e) => seen.push(e.type));
    await cluster.drive(store.compact(etcd.status()[0]!.revision));
    const victim = etcd.status().find((m) => m.role !== 'leader' && m.watchers > 0)!.name;
    etcd.stop(victim);
    await cluster.advance(3000);
    assert.equal(etcdWatches(), caches(), 'every cache watches etcd again');
    // Each cache holds what etcd holds, after writes to resources whose caches started again.
    const ns = cluster.client().resource({ group: '', version: 'v1', resource: 'namespaces' });
    await ns.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'after' } });
    await cms.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'after', namespace: 'default' }, data: {} });
    const deploy = cluster.client().resource({ group: 'apps', version: 'v1', resource: 'deployments' }, 'default');
    await deploy.create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } });
    await cluster.advance(3000);
    for (const s of storage.all()) {
      const res = await cluster.drive(store.range({ key: s.keyPrefix, rangeEnd: prefixEnd(s.keyPrefix), countOnly: true }));
      assert.equal(s.cache.stats().objects, res.count, `${s.keyPrefix}: the cache holds what etcd holds`);
    }
    const restarted = storage.all().filter((s) => s.cache.restarts > 0).map((s) => s.keyPrefix);
    assert.ok(restarted.length > 0, 'some caches started again');
    // The controllers' informers listed again: the Deployment got its ReplicaSet and its Pod.
    const rs = await cluster.client().resource({ group: 'apps', version: 'v1', resource: 'replicasets' }, 'default').list();
    assert.equal(rs.items.length, 1, `a ReplicaSet for the Deployment (caches started again: ${restarted.join(', ')})`);
    const pods = await cluster.client().resource({ group: '', version: 'v1', resource: 'pods' }, 'default').list();
    assert.equal(pods.items.length, 1);
    // A client's watch on a cache that started again ended with 410 Expired; one on another cache goes on.
    const cmRestarted = restarted.includes(storage.for({ group: '', resource: 'configmaps' })!.keyPrefix as string);
    if (cmRestarted) assert.ok(seen.includes('ERROR'), 'the configmaps watch was ended');
    else assert.ok(seen.includes('ADDED'), 'the configmaps watch saw the create');
    handle.stop();
    await cluster.close();
  });
});
