import assert from 'node:assert/strict';
import { applyStrategicMergePatch } from '../../../src/engine/apiserver/patch';
import type { JsonObject } from '../../../src/engine/api/types';
import { mergeItem } from './merge-item-schema';
import fixtures from './fixtures/strategic-merge-patch.json';

interface Case {
  name: string;
  source: string;
  original: JsonObject;
  patch: JsonObject;
  expected?: JsonObject;
  expectedError?: string;
}

describe('strategic merge patch: upstream strategicpatch tables (MergeItem)', () => {
  for (const c of fixtures.cases as Case[]) {
    it(c.name, () => {
      if (c.expectedError !== undefined) {
        assert.throws(() => applyStrategicMergePatch(c.original, c.patch, mergeItem), (err: Error) => err.message.includes(c.expectedError!));
        return;
      }
      assert.deepStrictEqual(applyStrategicMergePatch(c.original, c.patch, mergeItem), c.expected);
    });
  }
});
