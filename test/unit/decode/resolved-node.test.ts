import { strict as assert } from 'node:assert';
import { resolvedNode, type Resolved } from '../../../src/engine/apiserver/decode/yaml-scalars';

describe('resolvedNode', () => {
  const span = { start: 3, end: 7 };
  const refuse = (text: string): never => {
    throw new Error(`special ${text}`);
  };
  const cases: [string, Resolved, unknown][] = [
    ['null', { kind: 'null' }, { kind: 'null', start: 3, end: 7 }],
    ['bool', { kind: 'bool', value: true }, { kind: 'bool', value: true, start: 3, end: 7 }],
    ['number keeps its text', { kind: 'number', value: 511, text: '511', int: true }, { kind: 'number', value: 511, text: '511', start: 3, end: 7 }],
    ['string', { kind: 'string', value: 'yes' }, { kind: 'string', value: 'yes', start: 3, end: 7 }],
  ];
  for (const [name, r, want] of cases) {
    it(name, () => assert.deepEqual(resolvedNode(r, span, refuse), want));
  }
  for (const text of ['+Inf', '-Inf', 'NaN'] as const) {
    it(`${text} goes to the caller's answer`, () => assert.throws(() => resolvedNode({ kind: 'float-special', text }, span, refuse), { message: `special ${text}` }));
  }
});
