/** What kubectl reads of a document before it maps it (apply and the editor's delete share it). */
import { strict as assert } from 'node:assert';
import { documentIdentity } from '../../../src/engine/kubectl/apply';

describe('kubectl: a document identity', () => {
  const cases: [string, Record<string, unknown>, ReturnType<typeof documentIdentity>][] = [
    ['core', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'shop' } }, { group: '', version: 'v1', kind: 'Service', name: 'web', namespace: 'shop' }],
    ['a group', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } }, { group: 'apps', version: 'v1', kind: 'Deployment', name: 'web', namespace: '' }],
    ['no metadata', { apiVersion: 'v1', kind: 'Namespace' }, { group: '', version: 'v1', kind: 'Namespace', name: '', namespace: '' }],
    ['fields of the wrong type read as empty', { apiVersion: 3, kind: ['Pod'], metadata: { name: 7, namespace: false } }, { group: '', version: '', kind: '', name: '', namespace: '' }],
    ['metadata that is not an object', { apiVersion: 'v1', kind: 'Pod', metadata: 'web' }, { group: '', version: 'v1', kind: 'Pod', name: '', namespace: '' }],
  ];
  for (const [name, object, want] of cases) it(name, () => assert.deepEqual(documentIdentity(object as never), want));
});
