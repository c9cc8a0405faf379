/** controller_ref_manager_test.go: claiming, adopting and releasing through ownerReferences. */
import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../../src/engine/api/types';
import {
  adoptPatch,
  claimDecision,
  claimObjects,
  recheckError,
  releasePatch,
  type ClaimOps,
  type ControllerIdentity,
} from '../../../../src/engine/controllers/util/controller-ref-manager';

const rs: ControllerIdentity = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs', namespace: 'default', uid: '123' } };
const deleting: ControllerIdentity = { ...rs, metadata: { ...rs.metadata, deletionTimestamp: '2025-01-01T00:00:00Z' } };

function pod(name: string, owner?: string, extra: Partial<KubeObject['metadata']> = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: 'default',
      uid: `uid-${name}`,
      labels: { foo: 'bar' },
      ...(owner ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'x', uid: owner, controller: true }] } : {}),
      ...extra,
    },
  };
}

describe('controllers/controller-ref-manager', () => {
  const cases: [string, ControllerIdentity, KubeObject, boolean, string][] = [
    ['claims an orphan that matches', rs, pod('a'), true, 'adopt'],
    ['ignores an orphan that does not match', rs, pod('a'), false, 'ignore'],
    ['keeps what it owns and matches', rs, pod('a', '123'), true, 'owned'],
    ['releases what it owns but no longer matches', rs, pod('a', '123'), false, 'release'],
    ['ignores what another controller owns', rs, pod('a', '456'), true, 'ignore'],
    ['being deleted: adopts nothing', deleting, pod('a'), true, 'ignore'],
    ['being deleted: keeps what it owns', deleting, pod('a', '123'), true, 'owned'],
    ['being deleted: releases nothing', deleting, pod('a', '123'), false, 'ignore'],
    ['does not adopt an object being deleted', rs, pod('a', undefined, { deletionTimestamp: '2025-01-01T00:00:00Z' }), true, 'ignore'],
    ['does not adopt across namespaces', rs, pod('a', undefined, { namespace: 'other' }), true, 'ignore'],
  ];
  for (const [name, controller, obj, matches, expected] of cases) it(name, () => assert.equal(claimDecision(controller, obj, matches), expected));

  it('builds the strategic merge patches kube-controller-manager sends', () => {
    assert.deepEqual(adoptPatch(rs, 'uid-a'), {
      metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'rs', uid: '123', controller: true, blockOwnerDeletion: true }], uid: 'uid-a' },
    });
    assert.deepEqual(releasePatch('123', 'uid-a'), { metadata: { uid: 'uid-a', ownerReferences: [{ $patch: 'delete', uid: '123' }] } });
  });

  it('rechecks the controller once before adopting, and returns what it owns afterwards', async () => {
    const calls: string[] = [];
    const ops: ClaimOps<KubeObject> = {
      recheck: async () => void calls.push('recheck'),
      adopt: async (o) => void calls.push(`adopt ${o.metadata.name}`),
      release: async (o) => void calls.push(`release ${o.metadata.name}`),
      ignorable: () => false,
    };
    const objects = [pod('a'), pod('b', '123'), pod('c'), pod('d', '123'), pod('e', '456')];
    const [claimed, errors] = await claimObjects(rs, objects, (o) => o.metadata.name !== 'd', ops);
    assert.deepEqual(claimed.map((o) => o.metadata.name), ['a', 'b', 'c']);
    assert.deepEqual(errors, []);
    assert.deepEqual(calls, ['recheck', 'adopt a', 'adopt c', 'release d']);
  });

  it('adopts nothing when the recheck finds the controller going away', async () => {
    const ops: ClaimOps<KubeObject> = {
      recheck: async () => {
        throw recheckError(rs, { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs', namespace: 'default', uid: '123', deletionTimestamp: '2025-01-01T00:00:05Z' } });
      },
      adopt: async () => assert.fail('adopted'),
      release: async () => undefined,
      ignorable: () => false,
    };
    const [claimed, errors] = await claimObjects(rs, [pod('a')], () => true, ops);
    assert.deepEqual(claimed, []);
    assert.deepEqual(errors.map((e) => e.message), ["can't adopt Pod default/a (uid-a): default/rs has just been deleted at 2025-01-01 00:00:05 +0000 UTC"]);
  });

  it('names a controller replaced under the same name', () => {
    assert.equal(recheckError(rs, { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs', uid: '999' } })?.message, 'original ReplicaSet default/rs is gone: got uid 999, wanted 123');
  });

  it('ignores writes that find the object gone, and reports the others', async () => {
    const gone = Object.assign(new Error('pods "a" not found'), { gone: true });
    const ops: ClaimOps<KubeObject> = {
      recheck: async () => undefined,
      adopt: async (o) => {
        throw o.metadata.name === 'a' ? gone : new Error('boom');
      },
      release: async () => undefined,
      ignorable: (e) => e === gone,
    };
    const [claimed, errors] = await claimObjects(rs, [pod('a'), pod('b')], () => true, ops);
    assert.deepEqual(claimed, []);
    assert.deepEqual(errors.map((e) => e.message), ['boom']);
  });
});
