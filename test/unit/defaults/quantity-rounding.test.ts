import { strict as assert } from 'node:assert';
import { defaultResourceList, roundUpToMilli, quantityOf } from '../../../src/engine/apiserver/defaults/core/resource-list';
import type { JsonObject } from '../../../src/engine/api/types';

// SetDefaults_ResourceList (pkg/apis/core/v1/defaults.go): values are rounded up to milli scale
// (TestSetMinimumScalePod in defaults_test.go), and come back as the API server serializes them.
describe('defaults: ResourceList rounding', () => {
  const table: [string | number, string][] = [
    ['1n', '1m'],
    ['100u', '1m'],
    ['1001u', '2m'],
    ['0.0001', '1m'],
    ['0.5', '500m'],
    ['1.1', '1100m'],
    ['1', '1'],
    ['100m', '100m'],
    ['2000m', '2'],
    ['1024Mi', '1Gi'],
    ['0.5Gi', '512Mi'],
    ['1.5Gi', '1536Mi'],
    ['128974848', '128974848'],
    ['129e6', '129e6'],
    ['123Mi', '123Mi'],
    ['1E3', '1E3'],
    ['15e-6', '1e-3'],
    [2, '2'],
    [0.25, '250m'],
    ['0', '0'],
  ];
  for (const [input, want] of table) {
    it(`${JSON.stringify(input)} -> ${want}`, () => {
      const list: JsonObject = { cpu: input };
      defaultResourceList({ list }, 'list');
      assert.equal(list.cpu, want);
    });
  }

  it('leaves text that is not a quantity to validation', () => {
    const list: JsonObject = { cpu: 'lots', memory: true, storage: '1Gi' };
    defaultResourceList({ list }, 'list');
    assert.deepEqual(list, { cpu: 'lots', memory: true, storage: '1Gi' });
  });

  it('rounds negative values away from zero', () => {
    const q = quantityOf('-1500u');
    assert.ok(q);
    assert.equal(roundUpToMilli(q), '-2m');
  });
});
