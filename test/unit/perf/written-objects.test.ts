/**
 * A write's stored object is shared with reads and the watch cache instead of being decoded from
 * the stored bytes again; it must be exactly what decoding the bytes gives. Checked for every
 * valid object of the conformance corpus (created, then updated through a patch), and for the
 * sharing itself: reads before and after the cache catches up, and watch events.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isObject, parseApiVersion, type JsonObject, type KubeObject } from '../../../src/engine/api/types';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import { decodeFromStorage } from '../../../src/engine/apiserver/storage/codec';
import { ResourceStorage } from '../../../src/engine/apiserver/storage/resource-storage';
import { harness, type Harness } from '../apiserver/harness';

const casesDir = path.join(__dirname, '../../conformance/cases');

function validCorpusObjects(): JsonObject[] {
  const out: JsonObject[] = [];
  for (const file of fs.readdirSync(casesDir).filter((f) => f.endsWith('.json')).sort()) {
    const parsed: unknown = JSON.parse(fs.readFileSync(path.join(casesDir, file), 'utf8'));
    for (const c of Array.isArray(parsed) ? parsed : [parsed]) {
      if (c.validate && c.validate !== 'kind') continue;
      if (Array.isArray(c.expect) && c.expect.length === 0 && !c.old) out.push(c.object);
    }
  }
  return out;
}

interface Storage {
  key(namespace: string, name: string): string;
  get(key: string): Promise<{ object: KubeObject; modRevision: number; value: string } | undefined>;
}

/** The resource's storage, where the written objects are shared. */
function storageOf(h: Harness, group: string, resource: string): Storage {
  return (h.server as unknown as { storage: { for(r: { group: string; resource: string }): Storage } }).storage.for({ group, resource });
}

describe('perf: written objects shared instead of decoded again', () => {
  it('shares what decoding the stored bytes gives, for the corpus objects created and patched', async () => {
    const h = await harness();
    for (const ns of ['default', 'ns', 'valid', 'namespace', 'validns', 'foo', 'bar']) {
      await h.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      await h.create({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: ns } });
    }
    let checked = 0;
    for (const [i, o] of validCorpusObjects().entries()) {
      const { group, version } = parseApiVersion(String(o.apiVersion));
      const info = h.server.registry.byGvk(group, version, String(o.kind));
      if (!info) continue;
      const meta = isObject(o.metadata) ? o.metadata : {};
      const metadata = { ...meta, name: `${String(meta.name ?? 'x').slice(0, 40)}-${i}`, resourceVersion: undefined };
      const base = { group, version, resource: info.resource, namespace: info.namespaced ? String(meta.namespace ?? 'default') : undefined };
      const storage = storageOf(h, group, info.resource);
      // A resource stored in another's version (events.k8s.io Events) is read through a conversion.
      if (!(storage instanceof ResourceStorage)) continue;
      const key = storage.key(base.namespace ?? '', metadata.name);
      // Each write's shared object, read back before the watch cache has it, is what decoding its bytes gives.
      const sharedIsDecoded = async (): Promise<void> => {
        const stored = await storage.get(key);
        assert.ok(stored);
        assert.deepStrictEqual(stored.object, decodeFromStorage(stored), `${String(o.kind)} ${metadata.name}`);
        checked++;
      };
      const created = await h.req({ ...base, verb: 'create', body: { object: { ...o, metadata } } });
      if (created.code !== 201) continue;
      await sharedIsDecoded();
      const patched = await h.req({ ...base, verb: 'patch', name: metadata.name, patchType: 'merge', body: { object: { metadata: { labels: { patched: 'yes' } } } } });
      if (patched.code === 200) await sharedIsDecoded();
    }
    assert.ok(checked > 100, `checked ${checked}`);
    await h.close();
  });

  it('gives watchers and later reads the written object', async () => {
    const h = await harness();
    await h.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
    const events: JsonObject[] = [];
    const watch = await h.server.watch({ verb: 'watch', group: '', version: 'v1', resource: 'configmaps', namespace: 'default', user: ADMIN_USER }, (e) => events.push(e.object));
    const created = await h.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { a: 'b' } });
    await h.clock.settle();
    assert.equal(events[0], created);
    const got = await h.req({ verb: 'get', resource: 'configmaps', namespace: 'default', name: 'c' });
    assert.equal(got.body, created);
    // Several writes before the cache catches up: each event still shares its write's object.
    const patched: JsonObject[] = [];
    for (const v of ['1', '2', '3']) {
      const res = await h.req({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'c', patchType: 'merge', body: { object: { data: { v } } } });
      patched.push(res.body);
    }
    await h.clock.settle();
    assert.deepEqual(events.slice(1).map((e) => e === patched[events.indexOf(e) - 1]), [true, true, true]);
    watch.stop();
    await h.close();
  });
});
