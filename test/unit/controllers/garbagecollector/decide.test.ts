/** attemptToDeleteItem's decisions (garbagecollector_test.go TestAttemptToDeleteItem cases) and the collector's patches. */
import { strict as assert } from 'node:assert';
import { decideDeletion, type OwnerClasses } from '../../../../src/engine/controllers/garbagecollector/decide';
import { identityKey, parseIdentityKey } from '../../../../src/engine/controllers/garbagecollector/identity';
import { deleteOwnerReferencesPatch, removeFinalizerPatch, unblockOwnerReferencesPatch } from '../../../../src/engine/controllers/garbagecollector/patches';
import type { KubeObject, OwnerReference } from '../../../../src/engine/api/types';

const owner = (uid: string, block = true): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: uid, uid, controller: true, blockOwnerDeletion: block });
const item = (finalizers: string[] = []): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', uid: 'p-uid', resourceVersion: '7', finalizers, ownerReferences: [owner('a'), owner('b', false)] } });
const classes = (solid: string[], dangling: string[], waiting: string[]): OwnerClasses => ({ solid: solid.map((u) => owner(u)), dangling: dangling.map((u) => owner(u)), waiting: waiting.map((u) => owner(u)) });

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
