/**
 * A resource's storage shares the objects it writes with its watch cache instead of decoding
 * their bytes again, whichever of the two comes first to the API server: the txn's answer or
 * the watch event (with the latency model, the member the watch is on can apply the write and
 * its event reach the cache before the answer comes back from another member).
 */
import assert from 'node:assert/strict';
import { Clock } from '../../../src/engine/clock';
import { Random } from '../../../src/engine/random';
import { ResourceStorage } from '../../../src/engine/apiserver/storage/resource-storage';
import { createSimulatedEtcd } from '../../../src/engine/store/etcdserver';
import type { ResourceInfo } from '../../../src/engine/apiserver/resources';
import type { KubeObject } from '../../../src/engine/api/types';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true, storagePrefix: 'configmaps' } as unknown as ResourceInfo;

function configMap(name: string, data: Record<string, string>): KubeObject {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data } as KubeObject;
}

describe('ResourceStorage and its watch cache', () => {
  for (const members of [1, 3]) {
    for (const latency of ['instant', 'model'] as const) {
      it(`${members} member(s), ${latency} latency: every write reaches the cache as the object written, never decoded again`, async () => {
        const clock = new Clock(0);
        const store = createSimulatedEtcd(clock, { members, latency, random: new Random('storage') });
        const storage = new ResourceStorage(store, CONFIGMAPS);
        await clock.until(storage.cache.start());
        const written: KubeObject[] = [];
        const events: KubeObject[] = [];
        storage.cache.watch({
          keyPrefix: storage.keyPrefix,
          fromRevision: storage.cache.resourceVersion,
          initialState: false,
          matches: () => true,
          listener: (e) => {
            if (e.type !== 'BOOKMARK' && e.type !== 'ERROR') events.push(e.object);
          },
          bookmarks: false,
          initialEventsEnd: false,
          bookmarkType: { kind: 'ConfigMap', apiVersion: 'v1' },
        });
        // Writes from several clients at once, round robin over the members: the answers and the
        // events come back in every order.
        const key = (i: number): string => storage.key('default', `cm-${i}`);
        const creates = Array.from({ length: 12 }, (_, i) => storage.create(key(i), configMap(`cm-${i}`, { n: String(i) }), false));
        for (const r of await clock.until(Promise.all(creates))) written.push(r.object);
        const updates = written.map(async (obj, i) => {
          const current = await storage.get(key(i));
          assert.ok(current);
          const next = { ...obj, metadata: { ...obj.metadata }, data: { n: `${i}-updated` } } as KubeObject;
          delete next.metadata.resourceVersion;
          const r = await storage.update(key(i), next, current, false);
          assert.ok(!('conflict' in r));
          return r.object;
        });
        for (const obj of await clock.until(Promise.all(updates))) written.push(obj);
        await clock.settle();
        assert.equal(events.length, written.length);
        // The very objects the writes returned: shared, not decoded from the stored bytes.
        const byVersion = new Map(written.map((o) => [o.metadata.resourceVersion, o]));
        for (const e of events) assert.equal(e, byVersion.get(e.metadata.resourceVersion), `event at ${e.metadata.resourceVersion} is the written object`);
        await store.close();
      });
    }
  }
});
