import assert from 'node:assert/strict';
import { errFormatWrong, errSuffix, mustParseQuantity, parseQuantity, Quantity, type QuantityFormat } from '../../../src/engine/api/quantity';

// Tables from k8s.io/apimachinery/pkg/api/resource/quantity_test.go (release-1.35).
const q = (unscaled: number | bigint, exponent: number, format: QuantityFormat): Quantity => Quantity.scaled(BigInt(unscaled), exponent, format);

describe('Quantity', () => {
  describe('ParseQuantity (TestQuantityParse)', () => {
    const table: [string, Quantity][] = [
      ['0', q(0, 0, 'DecimalSI')],
      ['0n', q(0, 0, 'DecimalSI')],
      ['0u', q(0, 0, 'DecimalSI')],
      ['0m', q(0, 0, 'DecimalSI')],
      ['0Ki', q(0, 0, 'BinarySI')],
      ['0k', q(0, 0, 'DecimalSI')],
      ['0Mi', q(0, 0, 'BinarySI')],
      ['0M', q(0, 0, 'DecimalSI')],
      ['0Gi', q(0, 0, 'BinarySI')],
      ['0G', q(0, 0, 'DecimalSI')],
      ['0Ti', q(0, 0, 'BinarySI')],
      ['0T', q(0, 0, 'DecimalSI')],
      ['1', q(1, 0, 'DecimalSI')],
      ['1Ki', q(1024, 0, 'BinarySI')],
      ['8Ki', q(8 * 1024, 0, 'BinarySI')],
      ['7Mi', q(7 * 1024 * 1024, 0, 'BinarySI')],
      ['6Gi', q(6 * 1024 ** 3, 0, 'BinarySI')],
      ['5Ti', q(5 * 1024 ** 4, 0, 'BinarySI')],
      ['4Pi', q(4n * 1024n ** 5n, 0, 'BinarySI')],
      ['3Ei', q(3n * 1024n ** 6n, 0, 'BinarySI')],
      ['10Ti', q(10 * 1024 ** 4, 0, 'BinarySI')],
      ['100Ti', q(100 * 1024 ** 4, 0, 'BinarySI')],
      ['5n', q(5, -9, 'DecimalSI')],
      ['4u', q(4, -6, 'DecimalSI')],
      ['3m', q(3, -3, 'DecimalSI')],
      ['9', q(9, 0, 'DecimalSI')],
      ['8k', q(8, 3, 'DecimalSI')],
      ['50k', q(5, 4, 'DecimalSI')],
      ['7M', q(7, 6, 'DecimalSI')],
      ['6G', q(6, 9, 'DecimalSI')],
      ['5T', q(5, 12, 'DecimalSI')],
      ['40T', q(4, 13, 'DecimalSI')],
      ['300T', q(3, 14, 'DecimalSI')],
      ['2P', q(2, 15, 'DecimalSI')],
      ['1E', q(1, 18, 'DecimalSI')],
      ['1E-3', q(1, -3, 'DecimalExponent')],
      ['1e3', q(1, 3, 'DecimalExponent')],
      ['1E6', q(1, 6, 'DecimalExponent')],
      ['1e9', q(1, 9, 'DecimalExponent')],
      ['1E12', q(1, 12, 'DecimalExponent')],
      ['1e15', q(1, 15, 'DecimalExponent')],
      ['1E18', q(1, 18, 'DecimalExponent')],
      ['1e14', q(1, 14, 'DecimalExponent')],
      ['1e13', q(1, 13, 'DecimalExponent')],
      ['100.035k', q(100035, 0, 'DecimalSI')],
      ['0.001', q(1, -3, 'DecimalSI')],
      ['0.0005k', q(5, -1, 'DecimalSI')],
      ['0.005', q(5, -3, 'DecimalSI')],
      ['0.05', q(5, -2, 'DecimalSI')],
      ['0.5', q(5, -1, 'DecimalSI')],
      ['0.00050k', q(5, -1, 'DecimalSI')],
      ['0.00500', q(5, -3, 'DecimalSI')],
      ['0.05000', q(5, -2, 'DecimalSI')],
      ['0.50000', q(5, -1, 'DecimalSI')],
      ['0.5e0', q(5, -1, 'DecimalExponent')],
      ['0.5e-1', q(5, -2, 'DecimalExponent')],
      ['0.5e-2', q(5, -3, 'DecimalExponent')],
      ['10.035M', q(10035, 3, 'DecimalSI')],
      ['1.2e3', q(12, 2, 'DecimalExponent')],
      ['1.3E+6', q(13, 5, 'DecimalExponent')],
      ['1.40e9', q(14, 8, 'DecimalExponent')],
      ['1.53E12', q(153, 10, 'DecimalExponent')],
      ['1.6e15', q(16, 14, 'DecimalExponent')],
      ['1.7E18', q(17, 17, 'DecimalExponent')],
      ['9.01', q(901, -2, 'DecimalSI')],
      ['8.1k', q(81, 2, 'DecimalSI')],
      ['7.123456M', q(7123456, 0, 'DecimalSI')],
      ['6.987654321G', q(6987654321, 0, 'DecimalSI')],
      ['5.444T', q(5444, 9, 'DecimalSI')],
      ['40.1T', q(401, 11, 'DecimalSI')],
      ['300.2T', q(3002, 11, 'DecimalSI')],
      ['2.5P', q(25, 14, 'DecimalSI')],
      ['1.01E', q(101, 16, 'DecimalSI')],
      ['3.001n', q(4, -9, 'DecimalSI')],
      ['1.1E-9', q(2, -9, 'DecimalExponent')],
      ['0.0000000001', q(1, -9, 'DecimalSI')],
      ['0.0000000005', q(1, -9, 'DecimalSI')],
      ['0.00000000050', q(1, -9, 'DecimalSI')],
      ['0.5e-9', q(1, -9, 'DecimalExponent')],
      ['0.9n', q(1, -9, 'DecimalSI')],
      ['0.00000012345', q(124, -9, 'DecimalSI')],
      ['0.00000012354', q(124, -9, 'DecimalSI')],
      ['9Ei', q((1n << 63n) - 1n, 0, 'BinarySI')],
      ['9223372036854775807Ki', q((1n << 63n) - 1n, 0, 'BinarySI')],
      ['12E', q(12, 18, 'DecimalSI')],
      ['100.035Ki', q(10243584, -2, 'BinarySI')],
      ['0.5Mi', q(0.5 * 1024 * 1024, 0, 'BinarySI')],
      ['0.05Gi', q(536870912, -1, 'BinarySI')],
      ['0.025Ti', q(274877906944, -1, 'BinarySI')],
      ['0.000000000001Ki', q(2, -9, 'DecimalSI')],
      ['.001', q(1, -3, 'DecimalSI')],
      ['.0001k', q(100, -3, 'DecimalSI')],
      ['1.', q(1, 0, 'DecimalSI')],
      ['1.G', q(1, 9, 'DecimalSI')],
    ];
    for (const [input, expect] of table) {
      it(input, () => {
        for (const [prefix, sign] of [['', 1], ['+', 1], ['-', -1]] as const) {
          const got = parseQuantity(prefix + input);
          assert.ok(got.ok, `${prefix}${input}: ${got.ok ? '' : got.error}`);
          assert.equal(got.value.cmp(sign > 0 ? expect : expect.neg()), 0, `${prefix}${input}: got ${got.toString()} want ${expect.toString()}`);
          assert.equal(got.value.format, expect.format);
        }
      });
    }

    const invalid: [string, string][] = [
      ['', errFormatWrong],
      ['1.1.M', errFormatWrong],
      ['1+1.0M', errFormatWrong],
      ['0.1mi', errSuffix],
      ['0.1am', errFormatWrong],
      ['aoeu', errFormatWrong],
      ['.5i', errSuffix],
      ['1i', errSuffix],
      ['-3.01i', errSuffix],
      ['-3.01e-', errSuffix],
      [' 1', errFormatWrong],
      ['1 ', errFormatWrong],
      ['Non-Numeric', errFormatWrong],
    ];
    for (const [input, message] of invalid) {
      it(`rejects ${JSON.stringify(input)}`, () => {
        const got = parseQuantity(input);
        assert.ok(!got.ok);
        assert.equal(got.error, message);
      });
    }

    it('has the upstream regular expression text', () => {
      assert.equal(errFormatWrong, "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    });

    it('parses the lone sign and dot forms as zero, as upstream does', () => {
      for (const s of ['.', '-.', '+', '-']) assert.equal(mustParseQuantity(s).toString(), '0');
    });
  });

  describe('String (TestQuantityString)', () => {
    const table: [Quantity, string, string][] = [
      [q(1024 * 1024 * 1024, 0, 'BinarySI'), '1Gi', '1024Mi'],
      [q(300 * 1024 * 1024, 0, 'BinarySI'), '300Mi', '307200Ki'],
      [q(6 * 1024, 0, 'BinarySI'), '6Ki', ''],
      [q(1001 * 1024 * 1024 * 1024, 0, 'BinarySI'), '1001Gi', '1025024Mi'],
      [q(1024 ** 4, 0, 'BinarySI'), '1Ti', '1024Gi'],
      [q(5, 0, 'BinarySI'), '5', '5000m'],
      [q(500, -3, 'BinarySI'), '500m', '0.5'],
      [q(1, 9, 'DecimalSI'), '1G', '1000M'],
      [q(1000, 6, 'DecimalSI'), '1G', '0.001T'],
      [q(1000000, 3, 'DecimalSI'), '1G', ''],
      [q(1000000000, 0, 'DecimalSI'), '1G', ''],
      [q(1, -3, 'DecimalSI'), '1m', '1000u'],
      [q(80, -3, 'DecimalSI'), '80m', ''],
      [q(1080, -3, 'DecimalSI'), '1080m', '1.08'],
      [q(108, -2, 'DecimalSI'), '1080m', '1080000000n'],
      [q(10800, -4, 'DecimalSI'), '1080m', ''],
      [q(300, 6, 'DecimalSI'), '300M', ''],
      [q(1, 12, 'DecimalSI'), '1T', ''],
      [q(1234567, 6, 'DecimalSI'), '1234567M', ''],
      [q(1234567, -3, 'BinarySI'), '1234567m', ''],
      [q(3, 3, 'DecimalSI'), '3k', ''],
      [q(1025, 0, 'BinarySI'), '1025', ''],
      [q(0, 0, 'DecimalSI'), '0', ''],
      [q(0, 0, 'BinarySI'), '0', ''],
      [q(1, 9, 'DecimalExponent'), '1e9', '.001e12'],
      [q(1, -3, 'DecimalExponent'), '1e-3', '0.001e0'],
      [q(1, -9, 'DecimalExponent'), '1e-9', '1000e-12'],
      [q(80, -3, 'DecimalExponent'), '80e-3', ''],
      [q(300, 6, 'DecimalExponent'), '300e6', ''],
      [q(1, 12, 'DecimalExponent'), '1e12', ''],
      [q(1, 3, 'DecimalExponent'), '1e3', ''],
      [q(3, 3, 'DecimalExponent'), '3e3', ''],
      [q(0, 0, 'DecimalExponent'), '0', '00'],
      [q(1, -9, 'DecimalSI'), '1n', ''],
      [q(80, -9, 'DecimalSI'), '80n', ''],
      [q(1080, -9, 'DecimalSI'), '1080n', ''],
      [q(108, -8, 'DecimalSI'), '1080n', ''],
      [q(10800, -10, 'DecimalSI'), '1080n', ''],
      [q(1, -6, 'DecimalSI'), '1u', ''],
      [q(80, -6, 'DecimalSI'), '80u', ''],
      [q(1080, -6, 'DecimalSI'), '1080u', ''],
    ];
    for (const [value, expect, alternate] of table) {
      it(expect, () => {
        assert.equal(value.toString(), expect);
        assert.equal(mustParseQuantity(expect).toString(), expect);
        if (alternate) assert.equal(mustParseQuantity(alternate).toString(), expect);
        if (!value.isZero()) assert.equal(value.neg().toString(), '-' + expect);
      });
    }
  });

  describe('parse and emit (TestQuantityParseEmit and the forms the API server writes back)', () => {
    const table: [string, string][] = [
      ['1Ki', '1Ki'],
      ['1Mi', '1Mi'],
      ['1Gi', '1Gi'],
      ['1024Mi', '1Gi'],
      ['1000M', '1G'],
      ['.001Ki', '1024m'],
      ['.000001Ki', '1024u'],
      ['.000000001Ki', '1024n'],
      ['.000000000001Ki', '2n'],
      ['100m', '100m'],
      ['1500m', '1500m'],
      ['1000m', '1'],
      ['0.5', '500m'],
      ['1.5', '1500m'],
      ['1.5Gi', '1536Mi'],
      ['1e3', '1e3'],
      ['1.0', '1'],
      ['0.1m', '100u'],
      ['1000E', '1'],
    ];
    for (const [input, expect] of table) {
      it(`${input} -> ${expect}`, () => {
        assert.equal(mustParseQuantity(input).toString(), expect);
        assert.equal(mustParseQuantity('-' + input).toString(), '-' + expect);
      });
    }
  });

  describe('Cmp (TestQuantityCmp)', () => {
    const table: [string, string, number][] = [
      ['0', '0', 0],
      ['100m', '50m', 1],
      ['50m', '100m', -1],
      ['10000T', '100Gi', 1],
      ['1', '1000m', 0],
      ['1e2147483647', '1', 1],
      ['-1e2147483647', '1', -1],
    ];
    for (const [x, y, expect] of table) {
      it(`${x} vs ${y}`, () => {
        assert.equal(mustParseQuantity(x).cmp(mustParseQuantity(y)), expect);
        assert.equal(mustParseQuantity(y).cmp(mustParseQuantity(x)), 0 - expect || 0);
      });
    }
  });

  describe('arithmetic', () => {
    it('adding to or subtracting zero keeps the suffix (TestQuantityAddZeroPreservesSuffix)', () => {
      const zero = mustParseQuantity('0');
      for (const v of ['100m', '1Gi']) {
        const value = mustParseQuantity(v);
        assert.equal(value.add(zero).toString(), v);
        assert.equal(zero.add(value).toString(), v);
        assert.equal(value.sub(zero).toString(), v);
        assert.equal(zero.sub(value).toString(), value.neg().toString());
      }
    });

    it('Neg (TestQuantityNeg)', () => {
      assert.equal(q(901, -2, 'DecimalSI').neg().toString(), '-9010m');
    });

    it('adds across scales (TestAddSubRoundTripAcrossScales)', () => {
      assert.equal(mustParseQuantity('250m').add(mustParseQuantity('1')).toString(), '1250m');
      assert.equal(mustParseQuantity('1Gi').add(mustParseQuantity('512Mi')).toString(), '1536Mi');
      assert.equal(mustParseQuantity('1Gi').sub(mustParseQuantity('1Gi')).toString(), '0');
    });
  });

  describe('RoundUp (TestQuantityRoundUp)', () => {
    const table: [string, number, Quantity][] = [
      ['9.01', -3, q(901, -2, 'DecimalSI')],
      ['9.01', -2, q(901, -2, 'DecimalSI')],
      ['9.01', -1, q(91, -1, 'DecimalSI')],
      ['9.01', 0, q(10, 0, 'DecimalSI')],
      ['9.01', 1, q(10, 0, 'DecimalSI')],
      ['9.01', 2, q(100, 0, 'DecimalSI')],
      ['-9.01', -1, q(-91, -1, 'DecimalSI')],
      ['-9.01', 0, q(-10, 0, 'DecimalSI')],
      ['-9.01', 2, q(-100, 0, 'DecimalSI')],
    ];
    for (const [input, scale, expect] of table) {
      it(`${input} to 10^${scale}`, () => assert.equal(mustParseQuantity(input).roundUp(scale).cmp(expect), 0));
    }
    it('rounds to milli the way defaulting writes resource lists back', () => {
      const milli = (s: string): string => mustParseQuantity(s).roundUp(-3).toString();
      assert.equal(milli('100u'), '1m');
      assert.equal(milli('1500u'), '2m');
      assert.equal(milli('2500n'), '1m');
      assert.equal(milli('1000u'), '1m');
      assert.equal(milli('100m'), '100m');
      assert.equal(milli('1e3'), '1e3');
      assert.equal(milli('-100u'), '-1m');
      assert.equal(milli('0.5Ki'), '512');
    });
  });

  describe('Value and MilliValue (round up)', () => {
    const table: [string, number, number][] = [
      ['1', 1, 1000],
      ['100m', 1, 100],
      ['1.5', 2, 1500],
      ['0.0001', 1, 1],
      ['1Gi', 1073741824, 1073741824000],
      ['1n', 1, 1],
      ['-1.5', -2, -1500],
      // The inf.Dec path truncates negative values and then adds one (upstream behaviour).
      ['-100.035Ki', -102434, -102435840],
    ];
    for (const [input, value, milli] of table) {
      it(input, () => {
        assert.equal(mustParseQuantity(input).value(), value);
        assert.equal(mustParseQuantity(input).milliValue(), milli);
      });
    }
  });
});
