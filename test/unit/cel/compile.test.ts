import * as assert from 'node:assert/strict';
import { compile } from '../../../src/engine/cel/compile';
import { extendEnvironment } from '../../../src/engine/cel/environment';
import { toCel } from '../../../src/engine/cel/values';

const env = extendEnvironment({ variables: { object: 'dyn', x: 'int', s: 'string' } });

function error(expr: string): string {
  const r = compile(env, expr);
  assert.ok(!r.ok, `${expr} compiles`);
  return r.error;
}

async function value(expr: string, object: unknown = {}): Promise<unknown> {
  const r = compile(env, expr);
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.program.evaluate({ object: toCel(object), x: 1n, s: 'str' });
}

describe('CEL compile (cel-go texts)', () => {
  it('reports checker errors in cel-go words at cel-go positions', () => {
    assert.equal(error('foo + 1'), "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo + 1\n | ^");
    assert.equal(error('x + s'), "compilation failed: ERROR: <input>:1:3: found no matching overload for '_+_' applied to '(int, string)'\n | x + s\n | ..^");
    assert.equal(error('s.size(1)'), "compilation failed: ERROR: <input>:1:7: found no matching overload for 'size' applied to 'string.(int)'\n | s.size(1)\n | ......^");
    assert.equal(error('x.foo'), "compilation failed: ERROR: <input>:1:2: type 'int' does not support field selection\n | x.foo\n | .^");
    assert.equal(error('[1, "a"]'), "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, \"a\"]\n | ....^");
    assert.equal(error('true ? 1 : "a"'), "compilation failed: ERROR: <input>:1:6: found no matching overload for '_?_:_' applied to '(bool, int, string)'\n | true ? 1 : \"a\"\n | .....^");
  });

  it('reports every type error, sorted by position, as cel-go does', () => {
    // cel-go's checker_test.go: two undefined fields of one expression, each at its selection
    const typed = extendEnvironment({
      variables: { x: 'TestAllTypes' },
      types: [
        { name: 'NestedMessage', fields: { bb: 'int' } },
        { name: 'TestAllTypes', fields: { single_nested_message: 'NestedMessage', single_int32: 'int', repeated_int32: 'list<int>' } },
      ],
    });
    const e = 'x.single_nested_message.undefined == x.undefined && has(x.single_int32) && has(x.repeated_int32)';
    const r = compile(typed, e);
    assert.ok(!r.ok);
    assert.equal(
      r.error,
      `compilation failed: ERROR: <input>:1:24: undefined field 'undefined'\n | ${e}\n | .......................^\nERROR: <input>:1:39: undefined field 'undefined'\n | ${e}\n | ......................................^`,
    );
    assert.equal(
      error("foo + 1 == s && x + s > 0 && bar"),
      "compilation failed: ERROR: <input>:1:1: undeclared reference to 'foo' (in container '')\n | foo + 1 == s && x + s > 0 && bar\n | ^\n" +
        "ERROR: <input>:1:19: found no matching overload for '_+_' applied to '(int, string)'\n | foo + 1 == s && x + s > 0 && bar\n | ..................^\n" +
        "ERROR: <input>:1:30: undeclared reference to 'bar' (in container '')\n | foo + 1 == s && x + s > 0 && bar\n | .............................^",
    );
    // an element that breaks a homogeneous literal is reported once
    assert.equal(error('[1, "a"]'), "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, \"a\"]\n | ....^");
  });

  it('refuses a result of the wrong type', () => {
    const r = compile(env, 's', { returns: ['bool'] });
    assert.ok(!r.ok);
    assert.equal(r.error, 'must evaluate to bool but got string');
  });

  it('evaluates the Kubernetes libraries', async () => {
    assert.equal(await value('quantity("1Gi").isGreaterThan(quantity("1M"))'), true);
    assert.equal(await value('ip("10.0.0.1").family() == 4 && cidr("10.0.0.0/8").containsIP("10.1.2.3")'), true);
    assert.equal(await value('url("https://a.b:8080/x?y=1").getPort()'), '8080');
    assert.equal(await value('semver("1.2.3").isLessThan(semver("1.10.0"))'), true);
    assert.equal(await value('sets.contains([1, 2], [1]) && [3, 1, 2].sort() == [1, 2, 3] && [1, 2, 3].sum() == 6'), true);
    assert.equal(await value('"a-b".replace("-", "_") + "abc".charAt(1) + "abc".find("b.")'), 'a_bbbc');
    assert.equal(await value('{"a": 1}.all(k, v, v > 0) && [1, 2].transformList(i, v, v * 2) == [2, 4]'), true);
    assert.equal(await value('object.?spec.?replicas.orValue(1)', { spec: { replicas: 3 } }), 3n);
    assert.deepEqual(await value('lists.range(3)'), [0n, 1n, 2n]);
  });

  it('reports runtime errors in cel-go words', async () => {
    await assert.rejects(async () => value('object.spec.missing', { spec: {} }), /^Error: no such key: missing$/);
    await assert.rejects(async () => value('x / 0'), /division by zero/);
  });
});
