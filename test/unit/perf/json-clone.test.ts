/**
 * The validators' clone copies without writing JSON text; it must give what the JSON round trip
 * gave: for every corpus object and for the values JSON treats specially.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { JsonValue } from '../../../src/engine/api/types';
import { clone } from '../../../src/engine/apiserver/validation/core/json';

const casesDir = path.join(__dirname, '../../conformance/cases');
const roundTrip = (v: unknown): unknown => (v === undefined ? v : JSON.parse(JSON.stringify(v)));

describe('perf: the validators clone without JSON text', () => {
  it('copies every corpus object as the JSON round trip does', () => {
    for (const file of fs.readdirSync(casesDir).filter((f) => f.endsWith('.json'))) {
      const parsed: unknown = JSON.parse(fs.readFileSync(path.join(casesDir, file), 'utf8'));
      for (const c of Array.isArray(parsed) ? parsed : [parsed]) {
        const copy = clone(c.object as JsonValue);
        assert.deepStrictEqual(copy, roundTrip(c.object));
        assert.notEqual(copy, c.object);
      }
    }
  });

  it('treats special values as the JSON round trip does', () => {
    const values: unknown[] = [
      undefined,
      null,
      -0,
      [-0, NaN, Infinity, -Infinity, 1e21, 5e-324, undefined, () => 1, Symbol('s')],
      { a: undefined, b: () => 1, c: Symbol('s'), d: -0, e: NaN, '1': 'one', '0': 'zero', z: { y: [{ x: -0 }] } },
      { lone: '\ud800', pair: '\ud83d\ude00', date: new Date(0), toJSON: undefined },
      { nested: { toJSON: () => ({ replaced: true }) } },
      { inst: new (class C { x = 1; })(), boxed: new String('s'), nullProto: Object.assign(Object.create(null) as object, { k: 1 }) },
    ];
    for (const v of values) assert.deepStrictEqual(clone(v as JsonValue), roundTrip(v));
  });
});
