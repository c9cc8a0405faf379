import { strict as assert } from 'node:assert';
import { Path } from '../../../../src/engine/api/field';
import { goJson } from '../../../../src/engine/api/gofmt';
import { rollingStrategyValue } from '../../../../src/engine/apiserver/validation/apps/go-values';
import { validateRollingUpdateValues } from '../../../../src/engine/apiserver/validation/apps/int-or-percent';
import { validateReplicaSetSelectorAndTemplate, validateRequiredSelector } from '../../../../src/engine/apiserver/validation/apps/template';
import { defaultRollingUpdateStrategy } from '../../../../src/engine/apiserver/defaults/apps/rolling-update';
import type { JsonObject } from '../../../../src/engine/api/types';

const messages = (errs: readonly { message: string }[]): string[] => errs.map((e) => e.message);

describe('apps validation helpers shared by the workload kinds', () => {
  const required: [string, JsonObject | undefined, string, string[]][] = [
    ['a missing selector is required', undefined, 'deployment', ['spec.selector: Required value']],
    ['an empty selector names the kind', {}, 'statefulset', ['spec.selector: Invalid value: {}: empty selector is invalid for statefulset']],
    ['a valid selector passes', { matchLabels: { app: 'web' } }, 'deployment', []],
    [
      'a bad label value is reported under matchLabels',
      { matchLabels: { app: 'a b' } },
      'deployment',
      [
        'spec.selector.matchLabels: Invalid value: "a b": a valid label must be an empty string or consist of alphanumeric characters, \'-\', \'_\' or \'.\', and must start and end with an alphanumeric character (e.g. \'MyValue\',  or \'my_value\',  or \'12345\', regex used for validation is \'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?\')',
      ],
    ],
  ];
  for (const [name, sel, kind, want] of required) {
    it(`validateRequiredSelector: ${name}`, () => {
      assert.deepEqual(messages(validateRequiredSelector(sel, kind, Path.root('spec', 'selector'))), want);
    });
  }

  const template = { metadata: { labels: { app: 'web' } }, spec: { restartPolicy: 'Always', dnsPolicy: 'ClusterFirst', terminationGracePeriodSeconds: 30, containers: [{ name: 'c', image: 'nginx', imagePullPolicy: 'Always', terminationMessagePolicy: 'File' }] } };
  const selectorAndTemplate: [string, JsonObject, string[]][] = [
    ['a matching template passes', { selector: { matchLabels: { app: 'web' } }, template }, []],
    [
      'a selector that does not select the template',
      { selector: { matchLabels: { app: 'api' } }, template },
      ['spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
    ],
    [
      'a selector that does not parse skips the template',
      { selector: { matchExpressions: [{ key: 'app', operator: 'Sometimes' }] }, template: {} },
      [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Sometimes": not a valid selector operator',
        'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Sometimes"}]}: invalid label selector',
      ],
    ],
    [
      'the pods run forever, in the ReplicaSet words',
      { selector: { matchLabels: { app: 'web' } }, template: { ...template, spec: { ...template.spec, restartPolicy: 'Never', activeDeadlineSeconds: 5 } } },
      ['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"', 'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported'],
    ],
  ];
  for (const [name, spec, want] of selectorAndTemplate) {
    it(`validateReplicaSetSelectorAndTemplate: ${name}`, () => {
      assert.deepEqual(messages(validateReplicaSetSelectorAndTemplate(spec, undefined, Path.root('spec'))), want);
    });
  }

  const strategies: [string, JsonObject, string][] = [
    ['no rolling update', { type: 'BlueGreen' }, '{"Type":"BlueGreen","RollingUpdate":null}'],
    ['a rolling update, absent fields as int 0', { type: 'X', rollingUpdate: { maxSurge: '10%' } }, '{"Type":"X","RollingUpdate":{"MaxUnavailable":0,"MaxSurge":"10%"}}'],
    ['no type', {}, '{"Type":"","RollingUpdate":null}'],
  ];
  for (const [name, s, want] of strategies) {
    it(`rollingStrategyValue: ${name}`, () => assert.equal(goJson(rollingStrategyValue(s)), want));
  }
});

describe('validateRollingUpdateValues', () => {
  const cases: [string, JsonObject, [unknown, unknown], string[]][] = [
    ['absent fields read as int 0', {}, [0, 0], []],
    ['ints and percents pass', { maxUnavailable: 2, maxSurge: '25%' }, [2, '25%'], []],
    [
      'each bad value is reported, maxUnavailable first',
      { maxUnavailable: -1, maxSurge: 'lots' },
      [-1, 'lots'],
      [
        'spec.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
        'spec.rollingUpdate.maxSurge: Invalid value: "lots": a valid percent string must be a numeric string followed by an ending \'%\' (e.g. \'1%\',  or \'93%\', regex used for validation is \'[0-9]+%\')',
      ],
    ],
    ['a percent over 100 is left to the caller', { maxUnavailable: '150%' }, ['150%', 0], []],
  ];
  for (const [name, ru, [unavailable, surge], want] of cases) {
    it(name, () => {
      const got = validateRollingUpdateValues(ru, Path.root('spec', 'rollingUpdate'));
      assert.deepEqual([got.maxUnavailable, got.maxSurge], [unavailable, surge]);
      assert.deepEqual(messages(got.errs), want);
    });
  }
});

describe('defaultRollingUpdateStrategy', () => {
  const cases: [string, JsonObject, JsonObject][] = [
    ['creates the strategy and its rolling update', {}, { strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } } }],
    ['keeps set fields', { strategy: { rollingUpdate: { maxSurge: 2 } } }, { strategy: { rollingUpdate: { maxSurge: 2, maxUnavailable: 1 }, type: 'RollingUpdate' } }],
    ['leaves another type alone', { strategy: { type: 'Recreate' } }, { strategy: { type: 'Recreate' } }],
    ['leaves a strategy that is not an object alone', { strategy: 'x' }, { strategy: 'x' }],
    ['leaves a rolling update that is not an object alone', { strategy: { type: 'RollingUpdate', rollingUpdate: 3 } }, { strategy: { type: 'RollingUpdate', rollingUpdate: 3 } }],
  ];
  for (const [name, spec, want] of cases) {
    it(name, () => {
      defaultRollingUpdateStrategy(spec, 'strategy', 1, 0);
      // Key order matters: defaulted objects are served as they are built.
      assert.equal(JSON.stringify(spec), JSON.stringify(want));
    });
  }
});
