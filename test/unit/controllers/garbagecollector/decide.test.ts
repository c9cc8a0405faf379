/** attemptToDeleteItem's decisions (garbagecollector_test.go TestAttemptToDeleteItem cases) and the collector's patches. */
import { strict as assert } from 'node:assert';
import { classifyReferences, decideDeletion, type OwnerClasses, type OwnerLookup } from '../../../../src/engine/controllers/garbagecollector/decide';
import { identityKey, parseIdentityKey } from '../../../../src/engine/controllers/garbagecollector/identity';
import { deleteOwnerReferencesPatch, removeFinalizerPatch, unblockOwnerReferencesPatch } from '../../../../src/engine/controllers/garbagecollector/patches';
import type { KubeObject, OwnerReference } from '../../../../src/engine/api/types';

const owner = (uid: string, block = true): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: uid, uid, controller: true, blockOwnerDeletion: block });
const item = (finalizers: string[] = []): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', uid: 'p-uid', resourceVersion: '7', finalizers, ownerReferences: [owner('a'), owner('b', false)] } });
const classes = (solid: string[], dangling: string[], waiting: string[]): OwnerClasses => ({ solid: solid.map((u) => owner(u)), dangling: dangling.map((u) => owner(u)), waiting: waiting.map((u) => owner(u)) });

/**
 * classifyReferences over what each lookup found: the owners of garbagecollector_test.go's
 * TestConflictingData and TestAttemptToDeleteItem (an owner that exists, one not found in the
 * child's namespace, one replaced by an object of another UID, one the absent owner cache knows,
 * one being deleted in the foreground, one being deleted otherwise).
 */
describe('controllers/garbagecollector classifyReferences', () => {
  const ref = (name: string, uid: string): OwnerReference => ({ apiVersion: 'v1', kind: 'Pod', name, uid });
  const found = (name: string, uid: string, meta: Partial<KubeObject['metadata']> = {}): OwnerLookup => ({ owner: { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'ns1', uid, ...meta } } });
  const notFound: OwnerLookup = { owner: undefined };
  const cachedAbsent: OwnerLookup = { cachedAbsent: true };
  const deleting = { deletionTimestamp: '2025-01-01T00:00:00Z' };
  const cases: [string, [OwnerReference, OwnerLookup][], { solid?: string[]; dangling?: string[]; waiting?: string[] }][] = [
    ['good child -> existing owner: solid', [[ref('podname2', 'poduid2'), found('podname2', 'poduid2')]], { solid: ['poduid2'] }],
    ['bad child in ns1 -> owner in ns2: not found in the child\'s namespace, dangling', [[ref('podname2', 'poduid2'), notFound]], { dangling: ['poduid2'] }],
    ['bad child -> an object of that name with another UID: dangling', [[ref('secretname', 'deploymentuid1'), found('secretname', 'secretuid1')]], { dangling: ['deploymentuid1'] }],
    ['an owner the absent owner cache knows: dangling without a lookup', [[ref('owner1', '123'), cachedAbsent]], { dangling: ['123'] }],
    ['an owner being deleted in the foreground: waiting for its dependents', [[ref('owner1', '123'), found('owner1', '123', { ...deleting, finalizers: ['foregroundDeletion'] })]], { waiting: ['123'] }],
    ['an owner being deleted, orphaning or in the background: still solid', [[ref('owner1', '123'), found('owner1', '123', { ...deleting, finalizers: ['orphan'] })], [ref('owner2', '456'), found('owner2', '456', deleting)]], { solid: ['123', '456'] }],
    ['a foregroundDeletion finalizer without a deletion timestamp: solid', [[ref('owner1', '123'), found('owner1', '123', { finalizers: ['foregroundDeletion'] })]], { solid: ['123'] }],
    [
      'several owners keep their order within each class',
      [[ref('a', 'a'), notFound], [ref('b', 'b'), found('b', 'b')], [ref('c', 'c'), cachedAbsent], [ref('d', 'd'), found('d', 'd', { ...deleting, finalizers: ['foregroundDeletion'] })], [ref('e', 'e'), found('e', 'e')]],
      { solid: ['b', 'e'], dangling: ['a', 'c'], waiting: ['d'] },
    ],
    ['no owners: all classes empty', [], {}],
  ];
  for (const [name, rows, want] of cases) {
    it(name, () => {
      const got = classifyReferences(rows.map(([r]) => r), rows.map(([, l]) => l));
      assert.deepEqual({ solid: got.solid.map((r) => r.uid), dangling: got.dangling.map((r) => r.uid), waiting: got.waiting.map((r) => r.uid) }, { solid: want.solid ?? [], dangling: want.dangling ?? [], waiting: want.waiting ?? [] });
    });
  }
});

describe('controllers/garbagecollector decisions', () => {
  const cases: [string, OwnerClasses, { hasDependents?: boolean; cycle?: boolean; finalizers?: string[] }, object][] = [
    ['all owners solid: nothing', classes(['a'], [], []), {}, { action: 'none' }],
    ['solid and dangling: the dangling reference is removed', classes(['a'], ['b'], []), {}, { action: 'remove-owner-references', uids: ['b'] }],
    ['solid and waiting: the waiting reference is removed', classes(['a'], [], ['b']), {}, { action: 'remove-owner-references', uids: ['b'] }],
    ['only dangling: background deletion', classes([], ['a'], []), {}, { action: 'delete', policy: 'Background', unblockOwners: false }],
    ['only dangling, orphan finalizer: orphan deletion', classes([], ['a'], []), { finalizers: ['orphan'] }, { action: 'delete', policy: 'Orphan', unblockOwners: false }],
    ['only dangling, foreground finalizer: foreground deletion', classes([], ['a'], []), { finalizers: ['foregroundDeletion'] }, { action: 'delete', policy: 'Foreground', unblockOwners: false }],
    ['waiting owner, no dependents: background deletion', classes([], [], ['a']), {}, { action: 'delete', policy: 'Background', unblockOwners: false }],
    ['waiting owner, with dependents: foreground deletion', classes([], [], ['a']), { hasDependents: true }, { action: 'delete', policy: 'Foreground', unblockOwners: false }],
    ['waiting owner, dependent also deleting dependents: unblock first', classes([], ['b'], ['a']), { hasDependents: true, cycle: true }, { action: 'delete', policy: 'Foreground', unblockOwners: true }],
  ];
  for (const [name, owners, opts, expected] of cases) {
    it(name, () => {
      assert.deepEqual(decideDeletion({ object: item(opts.finalizers), hasDependents: opts.hasDependents ?? false, dependentDeletingDependents: opts.cycle ?? false }, owners), expected);
    });
  }

  it('patches: delete references by uid, unblock references, remove a finalizer at the read resourceVersion', () => {
    assert.deepEqual(deleteOwnerReferencesPatch('dep', ['a', 'b']), { metadata: { ownerReferences: [{ $patch: 'delete', uid: 'a' }, { $patch: 'delete', uid: 'b' }], uid: 'dep' } });
    assert.deepEqual(unblockOwnerReferencesPatch(item()), { metadata: { ownerReferences: [{ ...owner('a'), blockOwnerDeletion: false }], uid: 'p-uid' } });
    assert.deepEqual(removeFinalizerPatch(item(['foregroundDeletion']), 'foregroundDeletion'), { metadata: { resourceVersion: '7', finalizers: null } });
    assert.deepEqual(removeFinalizerPatch(item(['a', 'orphan']), 'orphan'), { metadata: { resourceVersion: '7', finalizers: ['a'] } });
    assert.equal(removeFinalizerPatch(item(['a']), 'orphan'), undefined);
  });

  it('queue keys spell out the identity and parse back', () => {
    const id = { apiVersion: 'apps/v1', kind: 'ReplicaSet', namespace: 'default', name: 'web-5d9c7', uid: 'u1', virtual: false };
    assert.equal(identityKey(id), 'ReplicaSet.apps/v1 default/web-5d9c7 u1');
    assert.deepEqual(parseIdentityKey(identityKey(id)), id);
    const node = { apiVersion: 'v1', kind: 'Node', namespace: '', name: 'node-1', uid: 'u2', virtual: true };
    assert.equal(identityKey(node), 'Node.v1 node-1 u2 virtual');
    assert.deepEqual(parseIdentityKey(identityKey(node)), node);
  });
});
