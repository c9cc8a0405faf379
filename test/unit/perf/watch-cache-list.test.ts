/**
 * The watch cache shares a list until its objects change (the authorizers list the RBAC objects
 * on every request): the shared list is what listing afresh gives, and it follows every change.
 */
import assert from 'node:assert/strict';
import type { KubeObject } from '../../../src/engine/api/types';
import { harness } from '../apiserver/harness';

describe('perf: shared watch cache lists', () => {
  it('shares a list while nothing changes and lists afresh after each change', async () => {
    const h = await harness();
    const storage = (h.server as unknown as { storage: { for(r: { group: string; resource: string }): { cache: { list(p?: string): readonly KubeObject[] }; prefix(ns: string): string } } }).storage;
    const roles = storage.for({ group: 'rbac.authorization.k8s.io', resource: 'roles' });
    const names = (ns: string) => roles.cache.list(roles.prefix(ns)).map((r) => `${r.metadata.namespace}/${r.metadata.name}@${r.metadata.resourceVersion}`);
    const role = (ns: string, name: string) => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name, namespace: ns }, rules: [] });
    for (const ns of ['a', 'b']) await h.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await h.create(role('a', 'r2'));
    await h.create(role('a', 'r1'));
    await h.clock.settle();
    const first = roles.cache.list(roles.prefix('a'));
    assert.equal(roles.cache.list(roles.prefix('a')), first);
    assert.ok(Object.isFrozen(first));
    assert.deepEqual(names('a'), ['a/r1@22', 'a/r2@21']);
    await h.create(role('b', 'r0'));
    await h.clock.settle();
    assert.notEqual(roles.cache.list(roles.prefix('a')), first);
    assert.deepEqual(names('a'), ['a/r1@22', 'a/r2@21']);
    assert.deepEqual(names(''), ['a/r1@22', 'a/r2@21', 'b/r0@23']);
    await h.req({ verb: 'delete', group: 'rbac.authorization.k8s.io', resource: 'roles', namespace: 'a', name: 'r2' });
    await h.req({ verb: 'patch', group: 'rbac.authorization.k8s.io', resource: 'roles', namespace: 'b', name: 'r0', patchType: 'merge', body: { object: { metadata: { labels: { x: 'y' } } } } });
    await h.clock.settle();
    assert.deepEqual(names(''), ['a/r1@22', 'b/r0@25']);
    await h.close();
  });
});
