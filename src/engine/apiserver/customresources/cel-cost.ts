/**
 * The sizes CEL cost estimation assumes for a CRD schema (k8s.io/apiserver/pkg/cel/common/
 * schemas.go SchemaDeclType's MaxElements and MinSerializedSize): maxLength, maxItems and
 * maxProperties where declared, otherwise as many as fit a 3 MiB request, and the cost limits of
 * apiextensions-apiserver's CRD validation (per expression 10,000,000 times the rule's
 * cardinality, 100,000,000 for the whole schema) with their messages.
 */
import { MAX_REQUEST_SIZE_BYTES, MAX_UINT64, type Range, type SizeEstimator } from '../../cel/cost';
import { escapeProperty, withTypeAndObjectMeta } from './cel-types';
import type { Structural } from './structural';
import type { Path } from '../../api/field';

/** apiextensions validation: StaticEstimatedCostLimit and StaticEstimatedCRDCostLimit. */
export const STATIC_ESTIMATED_COST_LIMIT = 10_000_000n;
export const STATIC_ESTIMATED_CRD_COST_LIMIT = 100_000_000n;

const MAX_REQUEST = BigInt(MAX_REQUEST_SIZE_BYTES);

export interface SizeNode {
  readonly maxElements: bigint;
  readonly minSerializedSize: bigint;
  readonly fields?: ReadonlyMap<string, SizeNode>;
  readonly elem?: SizeNode;
  readonly key?: SizeNode;
}

const STRING_KEY: SizeNode = { maxElements: 0n, minSerializedSize: 2n };
const zeroIfNegative = (v: number): bigint => (v < 0 ? 0n : BigInt(Math.trunc(v)));

/** SchemaDeclType's sizes for a schema node, undefined where it has no CEL type. */
export function sizeTree(s: Structural, isRoot: boolean): SizeNode | undefined {
  if (s.intOrString) return { maxElements: s.maxLength !== undefined ? zeroIfNegative(s.maxLength) * 4n : MAX_REQUEST - 2n, minSerializedSize: 1n };
  const node = isRoot ? withTypeAndObjectMeta(s) : s;
  switch (node.type) {
    case 'array': {
      if (!node.items) return undefined;
      const items = sizeTree(node.items, node.items.embeddedResource);
      if (!items) return undefined;
      const maxItems = node.maxItems !== undefined ? zeroIfNegative(node.maxItems) : (MAX_REQUEST - 2n) / (items.minSerializedSize + 1n);
      return { maxElements: maxItems, minSerializedSize: 2n, elem: items };
    }
    case 'object': {
      if (node.additionalProperties) {
        const props = sizeTree(node.additionalProperties, node.additionalProperties.embeddedResource);
        if (!props) return undefined;
        const maxProps = node.maxProperties !== undefined ? zeroIfNegative(node.maxProperties) : (MAX_REQUEST - 2n) / (props.minSerializedSize + 6n);
        return { maxElements: maxProps, minSerializedSize: 2n, elem: props, key: STRING_KEY };
      }
      const fields = new Map<string, SizeNode>();
      const required = new Set(node.required);
      let min = 2n;
      for (const [name, prop] of node.properties) {
        const t = sizeTree(prop, prop.embeddedResource);
        if (!t) continue;
        const f = escapeProperty(name);
        if (f) fields.set(f, t);
        if (required.has(name) && prop.default === undefined) min += BigInt(Buffer.byteLength(name)) + t.minSerializedSize + 4n;
      }
      return { maxElements: 0n, minSerializedSize: min, fields };
    }
    case 'string':
      switch (node.format) {
        case 'byte':
          return { maxElements: node.maxLength !== undefined ? zeroIfNegative(node.maxLength) : MAX_REQUEST - 2n, minSerializedSize: 2n };
        case 'duration':
          return { maxElements: 32n, minSerializedSize: 3n };
        case 'date':
          return { maxElements: 12n, minSerializedSize: 12n };
        case 'date-time':
          return { maxElements: 32n, minSerializedSize: 21n };
      }
      if (node.maxLength !== undefined) return { maxElements: zeroIfNegative(node.maxLength) * 4n, minSerializedSize: 2n };
      if (node.enum && node.enum.length > 0) {
        let longest = 0;
        for (const v of node.enum) if (typeof v === 'string' && Buffer.byteLength(v) > longest) longest = Buffer.byteLength(v);
        return { maxElements: BigInt(longest), minSerializedSize: 2n };
      }
      return { maxElements: MAX_REQUEST - 2n, minSerializedSize: 2n };
    case 'boolean':
      return { maxElements: 0n, minSerializedSize: 4n };
    case 'number':
    case 'integer':
      return { maxElements: 0n, minSerializedSize: 1n };
  }
  return undefined;
}

/** apiextensions-apiserver's sizeEstimator: a path below the rule's `self`, from its root. */
export function schemaSizeEstimator(root: SizeNode | undefined): SizeEstimator {
  return {
    estimateSize(path: readonly string[]): Range | undefined {
      if (!root || path.length === 0) return undefined;
      let n: SizeNode = root;
      for (const name of path.slice(1)) {
        let next: SizeNode | undefined;
        if (name === '@items' || name === '@values') next = n.elem;
        else if (name === '@keys') next = n.key;
        else next = n.fields?.get(name);
        if (!next) return undefined;
        n = next;
      }
      return { min: 0n, max: n.maxElements };
    },
  };
}

/** The worst-case number of times data of this minimum size fits a request. */
export function maxCardinality(minSize: bigint): bigint {
  return MAX_REQUEST / (minSize + 1n);
}

/** extractMaxElements: how many children a node can have (undefined: unbounded). */
export function maxChildren(s: Structural): bigint | undefined {
  switch (s.type) {
    case 'object':
      if (s.additionalProperties) return s.maxProperties !== undefined ? zeroIfNegative(s.maxProperties) : undefined;
      return 1n;
    case 'array':
      return s.maxItems !== undefined ? zeroIfNegative(s.maxItems) : undefined;
  }
  return 1n;
}

export function multiplyWithOverflowGuard(base: bigint, cardinality: bigint): bigint {
  if (base === 0n) return 0n;
  const p = base * cardinality;
  return p > MAX_UINT64 ? MAX_UINT64 : p;
}

/** Go's %f (six decimals) and %.1f of a float64. */
function goFloat(x: number, digits: number): string {
  return x.toFixed(digits);
}

/** getCostErrorMessage. */
export function costErrorMessage(name: string, cost: bigint, limit: bigint): string {
  const factor = Number(cost) / Number(limit);
  const f = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${goFloat(factor, 6)}x` : `${goFloat(factor, 1)}x`;
  return `${name} exceeds budget by factor of ${f} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** TotalCost: the schema's sum and its (up to four) most expensive expressions of >= 1%. */
export class TotalCost {
  total = 0n;
  readonly mostExpensive: { path: Path; cost: bigint }[] = [];
  observe(path: Path, cost: bigint): void {
    this.total = this.total + cost > MAX_UINT64 ? MAX_UINT64 : this.total + cost;
    if (cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100n) return;
    this.mostExpensive.push({ path, cost });
    this.mostExpensive.sort((a, b) => (a.cost > b.cost ? -1 : a.cost < b.cost ? 1 : 0));
    if (this.mostExpensive.length > 4) this.mostExpensive.length = 4;
  }
}
