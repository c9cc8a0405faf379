/**
 * `format: duration` in a CRD schema, as kube-apiserver reads it: kube-openapi's validator checks
 * the value with strfmt.IsDuration (apiextensions-apiserver keeps "duration" among its supported
 * formats), with its "must be of type duration" text; in CEL rules the value is a duration read
 * with strfmt.ParseDuration, and one it cannot read is the error UnstructuredToVal gives
 * ("Invalid duration %s: %v"), met only by the rules that read it.
 */
import { strict as assert } from 'node:assert';
import type { JsonObject } from '../../../src/engine/api/types';
import { validateRules } from '../../../src/engine/apiserver/customresources/cel-rules';
import { structuralOf } from '../../../src/engine/apiserver/customresources/structural';
import { validateCustomResource } from '../../../src/engine/apiserver/customresources/validate';

const schema = (rules: string[], extra: JsonObject = {}) =>
  structuralOf({
    type: 'object',
    properties: {
      timeout: { type: 'string', format: 'duration' },
      name: { type: 'string' },
      steps: { type: 'array', items: { type: 'string', format: 'duration' } },
      limits: { type: 'object', additionalProperties: { type: 'string', format: 'duration' } },
      ...extra,
    },
    'x-kubernetes-validations': rules.map((rule) => ({ rule })),
  });

const schemaErrors = (value: JsonObject) => validateCustomResource(value, schema([])).map((e) => `${e.field}: ${e.type}: ${e.detail}`).sort();
const ruleErrors = (rules: string[], value: JsonObject) => validateRules(schema(rules), value, undefined).map((e) => `${e.field}: ${e.detail}`);

describe('CRD format: duration (strfmt.IsDuration, UnstructuredToVal)', () => {
  describe('schema validation', () => {
    // strfmt's duration_test.go: Go's form, and the Scala-like one with its unit spellings.
    for (const text of ['1s', '-1.5h', '0', '1h30m', '3 days', '1w 2d 3h 4m', '1  second', '45 weekz', '12 hours', '2ms']) {
      it(`accepts ${JSON.stringify(text)}`, () => assert.deepEqual(schemaErrors({ timeout: text }), []));
    }
    for (const text of ['yada', 'three week', '12 parsecs', '1s invalid', 'invalid 1s', '5x', '1.5 days', '']) {
      it(`rejects ${JSON.stringify(text)} with kube-openapi's text`, () =>
        assert.deepEqual(schemaErrors({ timeout: text }), [`timeout: FieldValueTypeInvalid: timeout in body must be of type duration: ${JSON.stringify(text)}`]));
    }
    it('checks list items and map values', () =>
      assert.deepEqual(schemaErrors({ steps: ['1s', 'soon'], limits: { a: '2m', b: 'later' } }), [
        'limits.b: FieldValueTypeInvalid: limits.b in body must be of type duration: "later"',
        'steps[1]: FieldValueTypeInvalid: steps[1] in body must be of type duration: "soon"',
      ]));
  });

  describe('CEL rules', () => {
    const cases: { name: string; rules: string[]; value: JsonObject; want: string[] }[] = [
      { name: 'a readable value is a duration', rules: ["self.timeout == duration('90m')", "self.timeout > duration('1h')"], value: { timeout: '1h30m' }, want: [] },
      { name: 'the Scala-like form reads as strfmt reads it', rules: ["self.timeout == duration('72h')"], value: { timeout: '3 days' }, want: [] },
      { name: 'a failing comparison is the rule failing', rules: ["self.timeout < duration('1m')"], value: { timeout: '1h' }, want: [": failed rule: self.timeout < duration('1m')"] },
      {
        name: 'an unreadable value is an error where a rule reads it',
        rules: ["self.timeout > duration('1s')"],
        value: { timeout: 'yada' },
        want: [": Invalid duration yada: unable to parse yada as duration evaluating rule: self.timeout > duration('1s')"],
      },
      {
        // cel-go's has() on a map whose value is an error returns the error.
        name: 'has() reads it too',
        rules: ['has(self.timeout)'],
        value: { timeout: 'yada' },
        want: [': Invalid duration yada: unable to parse yada as duration evaluating rule: has(self.timeout)'],
      },
      { name: 'a rule that does not read it is evaluated as usual', rules: ["self.name == 'a'", "self.name == 'b'"], value: { timeout: 'yada', name: 'a' }, want: [": failed rule: self.name == 'b'"] },
      {
        name: 'a list element is an error when it is read',
        rules: ['size(self.steps) == 2', "self.steps[0] == duration('1s')", "self.steps.all(s, s > duration('0s'))"],
        value: { steps: ['1s', 'soon'] },
        want: [": Invalid duration soon: unable to parse soon as duration evaluating rule: self.steps.all(s, s > duration('0s'))"],
      },
      {
        name: 'a map value is an error when it is read',
        rules: ["self.limits.a == duration('2m')", "self.limits.b == duration('2m')"],
        value: { limits: { a: '2m', b: 'later' } },
        want: [": Invalid duration later: unable to parse later as duration evaluating rule: self.limits.b == duration('2m')"],
      },
      {
        name: 'a count past int64 is strconv.Atoi\'s range error',
        rules: ["self.timeout > duration('1s')"],
        value: { timeout: '99999999999999999999 weeks' },
        want: [': Invalid duration 99999999999999999999 weeks: strconv.Atoi: parsing "99999999999999999999": value out of range evaluating rule: self.timeout > duration(\'1s\')'],
      },
    ];
    for (const c of cases) it(c.name, () => assert.deepEqual(ruleErrors(c.rules, c.value), c.want));

    it('a rule on the string itself fails with the error', () => {
      const s = structuralOf({ type: 'object', properties: { timeout: { type: 'string', format: 'duration', 'x-kubernetes-validations': [{ rule: "self >= duration('0s')" }] } } });
      assert.deepEqual(
        validateRules(s, { timeout: 'yada' }, undefined).map((e) => `${e.field}: ${e.detail}`),
        ["timeout: Invalid duration yada: unable to parse yada as duration evaluating rule: self >= duration('0s')"],
      );
      assert.deepEqual(validateRules(s, { timeout: '5s' }, undefined), []);
    });
  });
});
