/**
 * CRD validation rules (x-kubernetes-validations) on the full cluster: a rule that does not
 * compile refuses the CRD with kube-apiserver's text; a custom resource that breaks a rule is
 * refused at the rule's node (or its fieldPath) with its message, messageExpression, reason or
 * `failed rule: ...`; a transition rule (oldSelf) runs on updates only.
 */
import { strict as assert } from 'node:assert';
import { ADMIN_USER } from '../../src/engine/apiserver/authn/user';
import type { ApiResponse } from '../../src/engine/apiserver/request';
import { scenario, type Scenario } from './support';

function crd(rules: string): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: JSON.parse(rules),
              },
            },
          },
        },
      ],
    },
  };
}

const SPEC = JSON.stringify({
  type: 'object',
  'x-kubernetes-validations': [
    { rule: 'self.replicas <= self.maxReplicas', messageExpression: "'replicas %d exceeds %d'.format([self.replicas, self.maxReplicas])" },
    { rule: "!has(self.name) || self.name.startsWith('w')", fieldPath: '.name', reason: 'FieldValueForbidden' },
    { rule: 'self.maxReplicas >= oldSelf.maxReplicas', message: 'maxReplicas may not shrink' },
  ],
  properties: {
    replicas: { type: 'integer' },
    maxReplicas: { type: 'integer' },
    name: { type: 'string', 'x-kubernetes-validations': [{ rule: 'size(self) < 10' }] },
  },
});

function request(s: Scenario, verb: 'create' | 'update', body: Record<string, unknown>, name?: string): Promise<ApiResponse> {
  const group = String(body['apiVersion']).split('/')[0]!;
  const isCrd = body['kind'] === 'CustomResourceDefinition';
  return s.cluster.drive(s.cluster.server.handle({
    verb,
    group: isCrd ? 'apiextensions.k8s.io' : group,
    version: 'v1',
    resource: isCrd ? 'customresourcedefinitions' : 'widgets',
    ...(isCrd ? {} : { namespace: 'default' }),
    ...(name ? { name } : {}),
    user: ADMIN_USER,
    body: { object: body as never },
  }));
}

const widget = (spec: Record<string, unknown>, resourceVersion?: string): Record<string, unknown> => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w1', ...(resourceVersion ? { resourceVersion } : {}) },
  spec,
});

describe('scenario: CRD validation rules', () => {
  it('refuses a CRD whose rule does not compile', async () => {
    const s = await scenario({ nodes: { count: 0 } });
    try {
      const bad = crd(JSON.stringify({ type: 'object', 'x-kubernetes-validations': [{ rule: 'self.replicas <= ' }], properties: { replicas: { type: 'integer' } } }));
      const r = await request(s, 'create', bad);
      assert.equal(r.code, 422);
      assert.equal(
        r.body['message'],
        'CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule: Invalid value: apiextensions.ValidationRule{Rule:"self.replicas <= ", Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}: compilation failed: ERROR: <input>:1:18: Syntax error: mismatched input \'<EOF>\' expecting {\'[\', \'{\', \'(\', \'.\', \'-\', \'!\', \'true\', \'false\', \'null\', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.replicas <= \n | .................^',
      );
      const undefinedField = crd(JSON.stringify({ type: 'object', 'x-kubernetes-validations': [{ rule: 'self.replica > 1' }], properties: { replicas: { type: 'integer' } } }));
      const u = await request(s, 'create', undefinedField);
      assert.match(String(u.body['message']), /compilation failed: ERROR: <input>:1:5: undefined field 'replica'\n \| self.replica > 1\n \| \.\.\.\.\^$/);
    } finally {
      await s.close();
    }
  });

  it('refuses custom resources that break a rule, at the rule\'s path with its message', async () => {
    const s = await scenario({ nodes: { count: 0 } });
    try {
      const c = await request(s, 'create', crd(SPEC));
      assert.equal(c.code, 201, JSON.stringify(c.body));
      await s.cluster.advance(2000);
      const ok = await request(s, 'create', widget({ replicas: 1, maxReplicas: 3, name: 'wide' }));
      assert.equal(ok.code, 201, JSON.stringify(ok.body));
      const bad = await request(s, 'create', widget({ replicas: 5, maxReplicas: 3, name: 'narrow-and-long' }));
      assert.equal(bad.code, 422);
      assert.deepEqual((bad.body['details'] as { causes: unknown[] }).causes, [
        { reason: 'FieldValueInvalid', message: 'Invalid value: replicas 5 exceeds 3', field: 'spec' },
        { reason: 'FieldValueForbidden', message: "Forbidden: failed rule: !has(self.name) || self.name.startsWith('w')", field: 'spec.name' },
        { reason: 'FieldValueInvalid', message: 'Invalid value: "narrow-and-long": failed rule: size(self) < 10', field: 'spec.name' },
      ]);
      const rv = (ok.body['metadata'] as { resourceVersion: string }).resourceVersion;
      const shrink = await request(s, 'update', widget({ replicas: 1, maxReplicas: 2, name: 'wide' }, rv), 'w1');
      assert.equal(shrink.code, 422);
      assert.match(String(shrink.body['message']), /spec: Invalid value: maxReplicas may not shrink$/);
    } finally {
      await s.close();
    }
  });
  it('refuses a CRD whose rules cost too much, and stops a rule at the per-call cost limit', async () => {
    const s = await scenario({ nodes: { count: 0 } });
    try {
      // unbounded: every string may be 3 MiB, the list as long as a request allows
      const unbounded = crd(JSON.stringify({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.exists_one(y, x == y))' }] } } }));
      const r = await request(s, 'create', unbounded);
      assert.equal(r.code, 422);
      const hint = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
      assert.deepEqual((r.body['details'] as { causes: unknown[] }).causes, [
        { reason: 'FieldValueForbidden', message: `Forbidden: estimated rule cost exceeds budget by factor of more than 100x ${hint}`, field: 'spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule' },
        { reason: 'FieldValueForbidden', message: 'Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema', field: 'spec.validation.openAPIV3Schema.properties[spec].properties[tags].x-kubernetes-validations[0].rule' },
        { reason: 'FieldValueForbidden', message: `Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x ${hint}`, field: 'spec.validation.openAPIV3Schema' },
      ]);
      // bounded: 1000 integers cost at most about 6,000,000 (under 10,000,000), but comparing each with all of them runs past the 1,000,000 a call may cost
      const bounded = crd(JSON.stringify({ type: 'object', properties: { ids: { type: 'array', maxItems: 1000, items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, self.all(y, x >= 0 && y >= 0))' }, { rule: 'size(self) > 0' }] } } }));
      const c = await request(s, 'create', bounded);
      assert.equal(c.code, 201, JSON.stringify(c.body));
      await s.cluster.advance(2000);
      const few = await request(s, 'create', widget({ ids: [1, 2, 3] }));
      assert.equal(few.code, 201, JSON.stringify(few.body));
      const many = await request(s, 'create', { ...widget({ ids: Array.from({ length: 1000 }, (_, i) => i) }), metadata: { name: 'w2' } });
      assert.equal(many.code, 422);
      assert.deepEqual((many.body['details'] as { causes: unknown[] }).causes, [
        {
          reason: 'FieldValueInvalid',
          message: 'Invalid value: "array": \'operation cancelled: actual cost limit exceeded\': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.all(y, x >= 0 && y >= 0))',
          field: 'spec.ids',
        },
      ]);
    } finally {
      await s.close();
    }
  });
});
