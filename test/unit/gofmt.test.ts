import { strict as assert } from 'node:assert';
import { goFloat, goJson, goQuote } from '../../src/engine/api/gofmt';

describe('Go value formatting', () => {
  it('quotes like strconv.Quote', () => {
    assert.equal(goQuote('web'), '"web"');
    assert.equal(goQuote('a"b\\c'), '"a\\"b\\\\c"');
    assert.equal(goQuote('tab\there\n'), '"tab\\there\\n"');
    assert.equal(goQuote('\x01'), '"\\x01"');
    assert.equal(goQuote('héllo'), '"héllo"');
  });

  it('prints floats like %v', () => {
    assert.equal(goFloat(1), '1');
    assert.equal(goFloat(-1), '-1');
    assert.equal(goFloat(0.5), '0.5');
    assert.equal(goFloat(1e21), '1e+21');
    assert.equal(goFloat(1.5e-7), '1.5e-07');
  });

  it('marshals like encoding/json: sorted keys, HTML escapes, trimmed exponents', () => {
    assert.equal(goJson({ b: 1, a: 'x' }), '{"a":"x","b":1}');
    assert.equal(goJson('<a&b>'), '"\\u003ca\\u0026b\\u003e"');
    assert.equal(goJson(1e-7), '1e-7');
    assert.equal(goJson(1e21), '1e+21');
    assert.equal(goJson([1, null, true]), '[1,null,true]');
    assert.equal(goJson(new Map([['z', 1], ['a', 2]])), '{"z":1,"a":2}');
  });
});
