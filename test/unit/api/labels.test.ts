import assert from 'node:assert/strict';
import {
  labelSelectorAsSelector,
  labelSelectorMatches,
  newRequirement,
  parseSelector,
  requirementString,
  Selector,
  selectorFromSet,
  type Operator,
} from '../../../src/engine/api/labels';

// Cases from k8s.io/apimachinery/pkg/labels/selector_test.go (release-1.35).
const parse = (s: string): Selector => {
  const sel = parseSelector(s);
  if (!sel.ok) throw new Error(`${s}: ${sel.error}`);
  return sel.value;
};
const parseError = (s: string): string => {
  const sel = parseSelector(s);
  assert.ok(!sel.ok, `${JSON.stringify(s)} should not parse`);
  return sel.error;
};

describe('label selectors', () => {
  it('round-trips the good strings (TestSelectorParse)', () => {
    for (const s of ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=', 'x= ', 'x=,z= ', 'x= ,z= ', '!x', 'x>1', 'x>1,z<5']) {
      assert.equal(parse(s).toString(), s.replace(/ /g, ''));
    }
  });

  it('rejects the bad strings (TestSelectorParse)', () => {
    for (const s of ['x=a||y=b', 'x==a==b', '!x=a', 'x<a']) parseError(s);
  });

  it('parses deterministically (TestDeterministicParse)', () => {
    assert.equal(parse('x=a,a=x').toString(), parse('a=x,x=a').toString());
  });

  it('matches (TestSelectorMatches)', () => {
    const yes: [string, Record<string, string>][] = [
      ['', { x: 'y' }],
      ['x=y', { x: 'y' }],
      ['x=y,z=w', { x: 'y', z: 'w' }],
      ['x!=y,z!=w', { x: 'z', z: 'a' }],
      ['notin=in', { notin: 'in' }],
      ['x', { x: 'z' }],
      ['!x', { y: 'z' }],
      ['x>1', { x: '2' }],
      ['x<1', { x: '0' }],
      ['foo=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
    ];
    const no: [string, Record<string, string>][] = [
      ['x=z', {}],
      ['x=y', { x: 'z' }],
      ['x=y,z=w', { x: 'w', z: 'w' }],
      ['x!=y,z!=w', { x: 'z', z: 'w' }],
      ['x', { y: 'z' }],
      ['!x', { x: 'z' }],
      ['x>1', { x: '0' }],
      ['x<1', { x: '2' }],
      ['foo=bar,foobar=bar,baz=blah', { foo: 'bar', baz: 'blah' }],
    ];
    for (const [s, l] of yes) assert.ok(parse(s).matches(l), `${s} should match ${JSON.stringify(l)}`);
    for (const [s, l] of no) assert.ok(!parse(s).matches(l), `${s} should not match ${JSON.stringify(l)}`);
  });

  it('parses sets (TestSetSelectorParser)', () => {
    const table: [string, string][] = [
      ['\rx', 'x'],
      ['this-is-a-dns.domain.com/key-with-dash', 'this-is-a-dns.domain.com/key-with-dash'],
      ['0.1.2.domain/99 notin (10.10.100.1, tick.tack.clock)', '0.1.2.domain/99 notin (10.10.100.1,tick.tack.clock)'],
      ['foo  in\t (abc)', 'foo in (abc)'],
      ['x notin\n (abc)', 'x notin (abc)'],
      ['x in (abc,)', 'x in (,abc)'],
      ['x in (abc,abc)', 'x in (abc)'],
      ['x in ()', 'x in ()'],
      ['x in (a,,a,,a,,a,,)', 'x in (,a)'],
      ['x notin (abc,,def),bar,z in (),w', 'bar,w,x notin (,abc,def),z in ()'],
      ['x notin ( )', 'x notin ()'],
      ['x notin (, a)', 'x notin (,a)'],
      ['a ', 'a'],
      ['a in (x,y,notin, z,in)', 'a in (in,notin,x,y,z)'],
    ];
    for (const [input, out] of table) assert.equal(parse(input).toString(), out, input);
    for (const bad of ['x=a||y=b', 'x,,y', ',x,y', 'x nott in (y)', 'a in (xyz),', 'a in (xyz)b notin ()', 'a in (xyz abc)', 'a notin(', 'a (', '(']) {
      parseError(bad);
    }
  });

  it('reports upstream parse errors', () => {
    assert.equal(parseError('x,,y'), "found ',', expected: identifier after ','");
    assert.equal(parseError(',x,y'), "found ',', expected: !, identifier, or 'end of string'");
    assert.equal(parseError('x nott in (y)'), "unable to parse requirement: found 'nott', expected: in, notin, =, ==, !=, gt, lt");
    assert.equal(parseError('a in (xyz abc)'), "unable to parse requirement: found 'abc', expected: ',' or ')'");
    assert.equal(parseError('a ('), "unable to parse requirement: found '(', expected: in, notin, =, ==, !=, gt, lt");
    assert.equal(parseError('('), "found '(', expected: !, identifier, or 'end of string'");
    assert.equal(parseError('a notin('), "unable to parse requirement: found '', expected: ',', ')' or identifier");
    assert.equal(parseError('a in x'), "unable to parse requirement: found 'x' expected: '('");
    assert.equal(
      parseError('x=a||y=b'),
      "unable to parse requirement: values[0][x]: Invalid value: \"a||y\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
    assert.equal(
      parseError('-x=a'),
      "unable to parse requirement: <nil>: Invalid value: \"-x\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
    assert.equal(parseError('x<a'), "unable to parse requirement: values[0]: Invalid value: \"a\": for 'Gt', 'Lt' operators, the value must be an integer");
    assert.equal(parseError('!x=a'), "found '=', expected: ',' or 'end of string'");
    assert.equal(parseError('x==a==b'), "found '==', expected: ',' or 'end of string'");
  });

  it('constructs requirements with upstream errors (TestRequirementConstructor)', () => {
    const err = (key: string, op: Operator, vals: string[] | null): string => {
      const r = newRequirement(key, op, vals);
      assert.ok(!r.ok, `${key} should fail`);
      return r.error;
    };
    assert.equal(err('x1', 'in', []), "values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty");
    assert.equal(err('x5', '=', ['bar', 'foo']), 'values: Invalid value: ["bar","foo"]: exact-match compatibility requires one single value');
    assert.equal(err('x8', 'exists', ['foo']), 'values: Invalid value: ["foo"]: values set must be empty for exists and does not exist');
    assert.equal(
      err('x13', 'gt', []),
      "values: Invalid value: []: for 'Gt', 'Lt' operators, exactly one value is required",
    );
    assert.equal(err('x14', 'gt', ['bar']), "values[0]: Invalid value: \"bar\": for 'Gt', 'Lt' operators, the value must be an integer");
    assert.equal(err('a'.repeat(254), 'exists', []).slice(0, 12), 'key: Invalid');
    assert.ok(err('x17', '=', ['a b']).startsWith('values[0][x17]: Invalid value: "a b": a valid label must'));
    assert.equal(err('x16', '=', ['a'.repeat(254)]), `values[0][x16]: Invalid value: "${'a'.repeat(254)}": must be no more than 63 bytes`);
    for (const [key, op, vals] of [
      ['x3', 'in', ['foo']],
      ['x6', 'exists', []],
      ['x7', '!', []],
      ['x11', 'gt', ['1']],
      ['x12', 'lt', ['6']],
    ] as [string, Operator, string[]][]) {
      assert.deepEqual(newRequirement(key, op, vals), { ok: true, value: { key, operator: op, values: vals } }, key);
    }
  });

  it('prints requirements (TestToString)', () => {
    const r = (key: string, operator: Operator, values: string[]) => ({ key, operator, values });
    assert.equal(Selector.of([r('x', 'in', ['abc', 'def']), r('y', 'notin', ['jkl']), r('z', 'exists', [])]).toString(), 'x in (abc,def),y notin (jkl),z');
    assert.equal(Selector.of([r('x', 'notin', ['abc', 'def']), r('y', '!=', ['jkl']), r('z', '!', [])]).toString(), 'x notin (abc,def),y!=jkl,!z');
    assert.equal(Selector.of([r('x', '=', ['abc']), r('y', '==', ['jkl']), r('z', '!=', ['a']), r('z', 'exists', [])]).toString(), 'x=abc,y==jkl,z!=a,z');
    assert.equal(Selector.of([r('x', 'gt', ['2']), r('y', 'lt', ['8']), r('z', 'exists', [])]).toString(), 'x>2,y<8,z');
    assert.equal(requirementString(r('z', 'notin', [''])), 'z notin ()');
  });

  it('selects by set and reports exact matches', () => {
    const s = selectorFromSet({ foo: 'bar', baz: 'blah' });
    assert.equal(s.toString(), 'baz=blah,foo=bar');
    assert.ok(s.matches({ foo: 'bar', baz: 'blah', x: 'y' }));
    assert.equal(parse('x in (a),y=b').requiresExactMatch('x'), 'a');
    assert.equal(parse('x in (a,b)').requiresExactMatch('x'), undefined);
    assert.ok(Selector.everything().empty());
    assert.ok(!Selector.nothing().matches({}));
  });

  describe('LabelSelectorAsSelector', () => {
    it('nil selects nothing, empty selects everything', () => {
      assert.ok(!labelSelectorMatches(null, {}));
      assert.ok(labelSelectorMatches({}, { a: 'b' }));
      assert.ok(labelSelectorMatches({ matchLabels: {}, matchExpressions: [] }, {}));
    });
    it('converts matchLabels and matchExpressions', () => {
      const sel = labelSelectorAsSelector({
        matchLabels: { app: 'web' },
        matchExpressions: [
          { key: 'tier', operator: 'In', values: ['a', 'b'] },
          { key: 'canary', operator: 'DoesNotExist' },
          { key: 'env', operator: 'NotIn', values: ['prod'] },
          { key: 'team', operator: 'Exists' },
        ],
      });
      assert.ok(sel.ok && sel.value instanceof Selector);
      assert.equal(sel.value.toString(), 'app=web,!canary,env notin (prod),team,tier in (a,b)');
      assert.ok(sel.value.matches({ app: 'web', tier: 'a', team: 'x' }));
      assert.ok(!sel.value.matches({ app: 'web', tier: 'a', team: 'x', canary: '1' }));
    });
    it('reports bad operators and values', () => {
      const bad = labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'Foo', values: [] }] });
      assert.deepEqual(bad, { ok: false, error: '"Foo" is not a valid label selector operator' });
      assert.ok(!bad.ok);
      assert.equal(bad.error, '"Foo" is not a valid label selector operator');
      const empty = labelSelectorAsSelector({ matchExpressions: [{ key: 'a', operator: 'In' }] });
      assert.ok(!empty.ok);
      assert.equal(empty.error, "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty");
    });
  });
});
