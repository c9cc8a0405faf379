/**
 * The MergeItem test type of k8s.io/apimachinery's strategicpatch tests, as a compiled schema:
 * its struct tags (patchStrategy, patchMergeKey) become the OpenAPI extensions they generate.
 */
import type { SchemaNode } from '../../../src/engine/api/openapi/types';
import { dict } from '../../../src/engine/api/own';

const str: SchemaNode = { type: 'string' };
const int: SchemaNode = { type: 'integer', format: 'int32' };
const stringMap: SchemaNode = { type: 'object', additionalProperties: str };

export const mergeItem: SchemaNode = { definition: 'strategicpatch.MergeItem', type: 'object', properties: dict<SchemaNode>() };
const retainKeysMergeItem: SchemaNode = { definition: 'strategicpatch.RetainKeysMergeItem', type: 'object', properties: dict<SchemaNode>() };
const rawExtension: SchemaNode = { definition: 'io.k8s.apimachinery.pkg.runtime.RawExtension', type: 'object' };

Object.assign(mergeItem.properties!, {
  name: str,
  value: str,
  other: str,
  mergingList: { type: 'array', items: mergeItem, patchStrategy: 'merge', patchMergeKey: 'name' },
  nonMergingList: { type: 'array', items: mergeItem },
  mergingIntList: { type: 'array', items: int, patchStrategy: 'merge' },
  nonMergingIntList: { type: 'array', items: int },
  mergeItemPtr: { ...mergeItem, patchStrategy: 'merge', patchMergeKey: 'name' },
  simpleMap: stringMap,
  replacingItem: { ...rawExtension, patchStrategy: 'replace' },
  jsonItem: {},
  retainKeysMap: { ...retainKeysMergeItem, patchStrategy: 'retainKeys' },
  retainKeysMergingList: { type: 'array', items: mergeItem, patchStrategy: 'merge,retainKeys', patchMergeKey: 'name' },
} satisfies Record<string, SchemaNode>);

Object.assign(retainKeysMergeItem.properties!, {
  name: str,
  value: str,
  other: str,
  simpleMap: stringMap,
  mergingIntList: { type: 'array', items: int, patchStrategy: 'merge' },
  mergingList: { type: 'array', items: mergeItem, patchStrategy: 'merge', patchMergeKey: 'name' },
  nonMergingList: { type: 'array', items: mergeItem },
} satisfies Record<string, SchemaNode>);
