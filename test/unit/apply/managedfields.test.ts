import assert from 'node:assert/strict';
import { parse } from 'yaml';
import type { ManagedFieldsEntry } from '../../../src/engine/api/types';
import { capUpdateManagers } from '../../../src/engine/apiserver/apply/capmanagers';
import { conflictError } from '../../../src/engine/apiserver/apply/conflict';
import { field, keyElement, valueElement } from '../../../src/engine/apiserver/apply/fieldpath/element';
import { fromFieldsV1, toFieldsV1 } from '../../../src/engine/apiserver/apply/fieldpath/fieldsv1';
import { FieldSet } from '../../../src/engine/apiserver/apply/fieldpath/set';
import { decodeManagedFields, emptyManaged, encodeManagedFields, managerIdentifier } from '../../../src/engine/apiserver/apply/managed';
import { checkPatchedIdentity, managerOrUserAgent } from '../../../src/engine/apiserver/apply';

describe('managedFields encoding (managedfields_test.go)', () => {
  // TestRoundTripManagedFields
  const roundTrips = [
    `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    v:3:
      f:alsoPi: {}
    v:3.1415:
      f:pi: {}
    v:false:
      f:notTrue: {}
  manager: foo
  operation: Update
  time: "2001-02-03T04:05:06Z"
- apiVersion: v1beta1
  fieldsType: FieldsV1
  fieldsV1:
    i:5:
      f:i: {}
  manager: foo
  operation: Update
  time: "2011-12-13T14:15:16Z"
`,
    `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:spec:
      f:containers:
        k:{"name":"c"}:
          f:image: {}
          f:name: {}
  manager: foo
  operation: Apply
`,
    `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:apiVersion: {}
    f:kind: {}
    f:metadata:
      f:labels:
        f:app: {}
      f:name: {}
    f:spec:
      f:replicas: {}
      f:selector:
        f:matchLabels:
          f:app: {}
      f:template:
        f:medatada:
          f:labels:
            f:app: {}
        f:spec:
          f:containers:
            k:{"name":"nginx"}:
              .: {}
              f:image: {}
              f:name: {}
              f:ports:
                i:0:
                  f:containerPort: {}
  manager: foo
  operation: Update
`,
    `- apiVersion: v1
  fieldsType: FieldsV1
  fieldsV1:
    f:spec:
      f:replicas: {}
  manager: foo
  operation: Update
  subresource: scale
`,
  ];
  roundTrips.forEach((text, i) => {
    it(`round-trips ${i}`, () => {
      const entries = parse(text) as ManagedFieldsEntry[];
      assert.deepStrictEqual(encodeManagedFields(decodeManagedFields(entries)), entries);
    });
  });

  it('emits fieldsV1 keys in element order: fields, keys, values, indices; "." first', () => {
    const set = FieldSet.of(
      [field('list'), valueElement(10)],
      [field('list'), valueElement(9)],
      [field('list'), valueElement('a')],
      [field('ports'), keyElement([['port', 8080]])],
      [field('ports'), keyElement([['port', 80]])],
      [field('ports'), keyElement([['port', 80]]), field('name')],
      [field('a')],
    );
    const encoded = toFieldsV1(set);
    assert.deepStrictEqual(Object.keys(encoded), ['f:a', 'f:list', 'f:ports']);
    assert.deepStrictEqual(Object.keys(encoded['f:list'] as object), ['v:9', 'v:10', 'v:"a"']);
    assert.deepStrictEqual(encoded['f:ports'], { 'k:{"port":80}': { '.': {}, 'f:name': {} }, 'k:{"port":8080}': {} });
    assert.deepStrictEqual(Object.keys(encoded['f:ports'] as object), ['k:{"port":80}', 'k:{"port":8080}']);
    assert.deepStrictEqual(toFieldsV1(fromFieldsV1(encoded)), encoded);
    assert.deepStrictEqual(toFieldsV1(FieldSet.of([field('x'), keyElement([['name', '<a&b>']])])), { 'f:x': { 'k:{"name":"\\u003ca\\u0026b\\u003e"}': {} } });
  });

  it('rejects entries kube-apiserver cannot decode', () => {
    const base = { manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} } as ManagedFieldsEntry;
    assert.throws(() => decodeManagedFields([{ ...base, operation: 'Patch' as never }]), { message: 'operation must be `Apply` or `Update`' });
    assert.throws(() => decodeManagedFields([{ ...base, apiVersion: '' }]), { message: 'apiVersion must not be empty' });
    assert.throws(() => decodeManagedFields([{ ...base, fieldsType: undefined }]), { message: 'missing fieldsType in managed fields entry 0' });
    assert.throws(() => decodeManagedFields([base, { ...base, fieldsType: 'FieldsV2' as never }]), { message: 'invalid fieldsType "FieldsV2" in managed fields entry 1' });
  });

  // TestBuildManagerIdentifier
  it('builds manager identifiers as encoding/json does', () => {
    assert.equal(managerIdentifier({ manager: 'foo', operation: 'Update', apiVersion: 'v1', time: '2001-02-03T04:05:06Z' }), '{"manager":"foo","operation":"Update","apiVersion":"v1"}');
    assert.equal(managerIdentifier({ manager: 'foo', operation: 'Apply', apiVersion: 'v1' }), '{"manager":"foo","operation":"Apply"}');
    assert.equal(managerIdentifier({ manager: 'foo', operation: 'Apply', subresource: 'scale' }), '{"manager":"foo","operation":"Apply","subresource":"scale"}');
  });

  // TestSortEncodedManagedFields ("manager sorted", "entries with subresource field")
  it('sorts Apply first, then by time, manager, apiVersion and subresource', () => {
    const managed = emptyManaged();
    const add = (manager: string, operation: 'Apply' | 'Update', time?: string, subresource?: string): void => {
      const id = managerIdentifier({ manager, operation, apiVersion: 'v1', subresource });
      managed.fields.set(id, { set: FieldSet.of([field('x')]), apiVersion: 'v1', applied: operation === 'Apply' });
      managed.times.set(id, time);
    };
    add('c', 'Update', '2001-01-01T01:00:00Z');
    add('a', 'Apply');
    add('g', 'Apply');
    add('f', 'Update', '2002-01-01T01:00:00Z');
    add('i', 'Apply');
    add('d', 'Update', '2002-01-01T01:00:00Z');
    add('h', 'Apply');
    add('e', 'Update', '2003-01-01T01:00:00Z');
    add('b', 'Apply', undefined, 'status');
    add('b', 'Apply', undefined, 'scale');
    add('b', 'Apply');
    assert.deepStrictEqual(
      encodeManagedFields(managed)!.map((e) => `${e.manager} ${e.subresource ?? ''}`.trim()),
      ['a', 'b', 'b scale', 'b status', 'g', 'h', 'i', 'c', 'd', 'f', 'e'],
    );
  });
});

describe('capping Update managers (capmanagers_test.go TestCapUpdateManagers, max 3)', () => {
  const entry = (manager: string, apiVersion: string, hour: number, ...fields: string[]): ManagedFieldsEntry => ({
    manager,
    operation: 'Update',
    apiVersion,
    time: `0001-01-01T${String(hour).padStart(2, '0')}:00:00Z`,
    fieldsType: 'FieldsV1',
    fieldsV1: toFieldsV1(FieldSet.of(...fields.map((f) => [field(f)]))),
  });
  const cases: Array<[string, ManagedFieldsEntry[], ManagedFieldsEntry[]]> = [
    [
      'one version, no ancient changes',
      [entry('update-manager1', 'v1', 1, 'a'), entry('update-manager2', 'v1', 2, 'b'), entry('update-manager3', 'v1', 3, 'c'), entry('update-manager4', 'v1', 4, 'd')],
      [entry('ancient-changes', 'v1', 2, 'a', 'b'), entry('update-manager3', 'v1', 3, 'c'), entry('update-manager4', 'v1', 4, 'd')],
    ],
    [
      'one version, one ancient changes',
      [entry('ancient-changes', 'v1', 2, 'a', 'b'), entry('update-manager3', 'v1', 3, 'c'), entry('update-manager4', 'v1', 4, 'd'), entry('update-manager5', 'v1', 5, 'e')],
      [entry('ancient-changes', 'v1', 3, 'a', 'b', 'c'), entry('update-manager4', 'v1', 4, 'd'), entry('update-manager5', 'v1', 5, 'e')],
    ],
    [
      'two versions, no ancient changes',
      [
        entry('update-manager1', 'v1', 1, 'a'),
        entry('update-manager2', 'v2', 2, 'b'),
        entry('update-manager3', 'v1', 3, 'c'),
        entry('update-manager4', 'v1', 4, 'd'),
        entry('update-manager5', 'v1', 5, 'e'),
      ],
      [entry('update-manager2', 'v2', 2, 'b'), entry('ancient-changes', 'v1', 4, 'a', 'c', 'd'), entry('update-manager5', 'v1', 5, 'e')],
    ],
    [
      'three versions, one ancient changes',
      [
        entry('update-manager2', 'v2', 2, 'b'),
        entry('ancient-changes', 'v1', 4, 'a', 'c', 'd'),
        entry('update-manager5', 'v1', 5, 'e'),
        entry('update-manager6', 'v3', 6, 'f'),
        entry('update-manager7', 'v2', 7, 'g'),
      ],
      [entry('ancient-changes', 'v1', 5, 'a', 'c', 'd', 'e'), entry('update-manager6', 'v3', 6, 'f'), entry('ancient-changes', 'v2', 7, 'b', 'g')],
    ],
    [
      'three versions, two ancient changes',
      [entry('ancient-changes', 'v1', 5, 'a', 'c', 'd', 'e'), entry('update-manager6', 'v3', 6, 'f'), entry('ancient-changes', 'v2', 7, 'b', 'g'), entry('update-manager8', 'v3', 8, 'h')],
      [entry('ancient-changes', 'v1', 5, 'a', 'c', 'd', 'e'), entry('ancient-changes', 'v2', 7, 'b', 'g'), entry('ancient-changes', 'v3', 8, 'f', 'h')],
    ],
    [
      'four versions, two ancient changes',
      [entry('ancient-changes', 'v1', 5, 'a', 'c', 'd', 'e'), entry('update-manager6', 'v3', 6, 'f'), entry('ancient-changes', 'v2', 7, 'b', 'g'), entry('update-manager8', 'v4', 8, 'h')],
      [entry('ancient-changes', 'v1', 5, 'a', 'c', 'd', 'e'), entry('update-manager6', 'v3', 6, 'f'), entry('ancient-changes', 'v2', 7, 'b', 'g'), entry('update-manager8', 'v4', 8, 'h')],
    ],
  ];
  for (const [name, input, expected] of cases) {
    it(name, () => {
      const managed = decodeManagedFields(input);
      capUpdateManagers(managed, 3);
      assert.deepStrictEqual(encodeManagedFields(managed), expected);
      capUpdateManagers(managed, 3);
      assert.deepStrictEqual(encodeManagedFields(managed), expected);
    });
  }
});

describe('apply conflict errors (conflict_test.go TestNewConflictError)', () => {
  const replicas = [field('spec'), field('replicas')];
  it('names one conflict, with time and subresource of an Update manager', () => {
    const err = conflictError([{ manager: '{"manager":"foo","operation":"Update","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}', path: replicas }]);
    assert.deepStrictEqual(err.status, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "foo" using v1 at 2001-02-03T04:05:06Z: .spec.replicas',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "foo" using v1 at 2001-02-03T04:05:06Z', field: '.spec.replicas' }] },
    });
    assert.equal(
      conflictError([{ manager: '{"manager":"foo","operation":"Update","subresource":"scale","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}', path: replicas }]).status.message,
      'Apply failed with 1 conflict: conflict with "foo" with subresource "scale" using v1 at 2001-02-03T04:05:06Z: .spec.replicas',
    );
  });

  it('groups several conflicts by manager', () => {
    const err = conflictError([
      { manager: '{"manager":"foo","operation":"Update","apiVersion":"v1","time":"2001-02-03T04:05:06Z"}', path: replicas },
      { manager: '{"manager":"bar","operation":"Apply"}', path: [field('metadata'), field('labels'), field('app')] },
    ]);
    assert.equal(
      err.status.message,
      'Apply failed with 2 conflicts: conflicts with "bar":\n- .metadata.labels.app\nconflicts with "foo" using v1 at 2001-02-03T04:05:06Z:\n- .spec.replicas',
    );
    assert.deepStrictEqual(
      err.status.details?.causes?.map((c) => c.message),
      ['conflict with "foo" using v1 at 2001-02-03T04:05:06Z', 'conflict with "bar"'],
    );
  });

  it('prints set items and multi-key items', () => {
    const err = conflictError([
      { manager: '{"manager":"m","operation":"Apply"}', path: [field('metadata'), field('finalizers'), valueElement('a')] },
      { manager: '{"manager":"m","operation":"Apply"}', path: [field('ports'), keyElement([['protocol', 'TCP'], ['port', 80]]), field('name')] },
    ]);
    assert.equal(err.status.message, 'Apply failed with 2 conflicts: conflicts with "m":\n- .metadata.finalizers[="a"]\n- .ports[port=80,protocol="TCP"].name');
  });
});

describe('request helpers', () => {
  it('derives the manager from the user agent', () => {
    assert.equal(managerOrUserAgent('kubectl-edit', 'kubectl/v1.35.0 (linux/amd64) kubernetes/66452049'), 'kubectl-edit');
    assert.equal(managerOrUserAgent('', 'kubectl/v1.35.0 (linux/amd64) kubernetes/66452049'), 'kubectl');
    assert.equal(managerOrUserAgent(undefined, 'kube-controller-manager/v1.35.0 (linux/amd64) kubernetes/66452049/system:serviceaccount:kube-system:deployment-controller'), 'kube-controller-manager');
    assert.equal(managerOrUserAgent(undefined, 'a\u0007b/1'), 'ab');
    assert.equal(managerOrUserAgent(undefined, 'x'.repeat(200)), 'x'.repeat(128));
  });

  it('checks the patched object against the URL', () => {
    const obj = { metadata: { name: 'a' } };
    assert.equal(checkPatchedIdentity(obj, 'a', 'default'), undefined);
    assert.deepStrictEqual(obj.metadata, { name: 'a', namespace: 'default' });
    assert.equal(checkPatchedIdentity({ metadata: {} }, 'a', 'default')?.status.message, 'the name of the object () does not match the name on the URL (a)');
    assert.equal(
      checkPatchedIdentity({ metadata: { name: 'a', namespace: 'other' } }, 'a', 'default')?.status.message,
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  });
});
