import assert from 'node:assert/strict';
import { atoi, getScaledValueFromIntOrPercent, intValue } from '../../../src/engine/api/intstr';

// From k8s.io/apimachinery/pkg/util/intstr/intstr_test.go (TestGetIntFromIntOrPercent and friends).
describe('IntOrString', () => {
  it('scales percentages against a total, rounding as asked', () => {
    const table: [number | string, number, boolean, number][] = [
      [123, 0, false, 123],
      ['90%', 100, true, 90],
      ['90%', 95, true, 86],
      ['90%', 95, false, 85],
      ['25%', 10, true, 3],
      ['25%', 10, false, 2],
      ['0%', 5, true, 0],
      ['100%', 7, false, 7],
    ];
    for (const [value, total, roundUp, expected] of table) {
      assert.deepEqual(getScaledValueFromIntOrPercent(value, total, roundUp), { ok: true, value: expected }, `${value} of ${total}`);
    }
  });

  it('reports upstream errors', () => {
    const msg = (v: number | string | undefined): string => {
      const r = getScaledValueFromIntOrPercent(v, 100, false);
      assert.ok(!r.ok);
      return r.error;
    };
    assert.equal(msg('%'), 'invalid value for IntOrString: invalid value "%": strconv.Atoi: parsing "": invalid syntax');
    assert.equal(msg('5'), 'invalid value for IntOrString: invalid type: string is not a percentage');
    assert.equal(msg('abc%'), 'invalid value for IntOrString: invalid value "abc%": strconv.Atoi: parsing "abc": invalid syntax');
    assert.equal(msg('99999999999999999999%'), 'invalid value for IntOrString: invalid value "99999999999999999999%": strconv.Atoi: parsing "99999999999999999999": value out of range');
    assert.equal(msg(undefined), 'nil value for IntOrString');
  });

  it('IntValue and Atoi', () => {
    assert.equal(intValue(5), 5);
    assert.equal(intValue('7'), 7);
    assert.equal(intValue('+7'), 7);
    assert.equal(intValue('x'), 0);
    assert.ok(!atoi(' 1').ok);
    assert.deepEqual(atoi('-12'), { ok: true, value: -12 });
  });
});
