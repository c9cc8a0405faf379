/**
 * ValidatingAdmissionPolicy on the full cluster: a policy bound with Deny refuses a Deployment
 * with kube-apiserver's Status (Invalid, 422, "ValidatingAdmissionPolicy 'p' with binding 'b'
 * denied request: ..."), Warn lets it through with the warning, Audit records the failure as an
 * audit annotation; params come from a ConfigMap by paramRef, variables and messageExpression
 * shape the message, and failurePolicy decides what an evaluation error does.
 */
import { strict as assert } from 'node:assert';
import { ADMIN_USER } from '../../src/engine/apiserver/authn/user';
import type { ApiResponse } from '../../src/engine/apiserver/request';
import { scenario, type Scenario } from './support';

const policy = (extra = ''): string => `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replica-limit.example.com}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
  variables:
  - name: limit
    expression: "int(params.data.maxReplicas)"
  validations:
  - expression: "object.spec.replicas <= variables.limit"
    messageExpression: "'replicas must be no greater than ' + string(variables.limit)"
    reason: Forbidden
  - expression: "object.metadata.name.startsWith('web')"
${extra}`;

const binding = (actions: string): string => `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: replica-limit-binding}
spec:
  policyName: replica-limit.example.com
  validationActions: [${actions}]
  paramRef: {name: limits, parameterNotFoundAction: Deny}
`;

const params = `
apiVersion: v1
kind: ConfigMap
metadata: {name: limits, namespace: default}
data: {maxReplicas: "5"}
`;

function createDeployment(s: Scenario, name: string, replicas: number): Promise<ApiResponse> {
  return s.cluster.drive(s.cluster.server.handle({
    verb: 'create',
    group: 'apps',
    version: 'v1',
    resource: 'deployments',
    namespace: 'default',
    user: ADMIN_USER,
    body: {
      object: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: {
        replicas,
        selector: { matchLabels: { app: name } },
        template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx:1.27' }] } },
      },
      },
    },
  }));
}

describe('scenario: ValidatingAdmissionPolicy', () => {
  it('Deny: refuses with the policy\'s message, reason and code', async () => {
    const s = await scenario({ nodes: { count: 1 } });
    try {
      await s.apply(params + '---' + policy() + '---' + binding('Deny'));
      // policies take effect once the API server's watch cache has them, as with its informers
      await s.cluster.advance(1000);
      const ok = await createDeployment(s, 'web-ok', 3);
      assert.equal(ok.code, 201, JSON.stringify(ok.body));
      const denied = await createDeployment(s, 'web-big', 9);
      assert.equal(denied.code, 403);
      const msg = "ValidatingAdmissionPolicy 'replica-limit.example.com' with binding 'replica-limit-binding' denied request: replicas must be no greater than 5";
      assert.equal(denied.body['reason'], 'Forbidden');
      assert.equal(denied.body['message'], `deployments.apps "web-big" is forbidden: ${msg}`);
      assert.deepEqual((denied.body['details'] as { causes: unknown[] }).causes, [{ message: msg }]);
      const unnamed = await createDeployment(s, 'api', 1);
      assert.equal(unnamed.code, 422);
      assert.equal(unnamed.body['reason'], 'Invalid');
      assert.equal(
        unnamed.body['message'],
        "deployments.apps \"api\" is forbidden: ValidatingAdmissionPolicy 'replica-limit.example.com' with binding 'replica-limit-binding' denied request: failed expression: object.metadata.name.startsWith('web')",
      );
    } finally {
      await s.close();
    }
  });

  it('Warn and Audit: admit, with the warning and the audit annotation', async () => {
    const s = await scenario({ nodes: { count: 1 } });
    try {
      await s.apply(params + '---' + policy() + '---' + binding('Warn, Audit'));
      await s.cluster.advance(1000);
      const r = await createDeployment(s, 'web-big', 9);
      assert.equal(r.code, 201);
      assert.deepEqual(r.warnings, ["Validation failed for ValidatingAdmissionPolicy 'replica-limit.example.com' with binding 'replica-limit-binding': replicas must be no greater than 5"]);
      assert.deepEqual(r.auditAnnotations, {
        'validation.policy.admission.k8s.io/validation_failure':
          '[{"message":"replicas must be no greater than 5","policy":"replica-limit.example.com","binding":"replica-limit-binding","expressionIndex":0,"validationActions":["Warn","Audit"]}]',
      });
    } finally {
      await s.close();
    }
  });

  it('a missing param with parameterNotFoundAction Deny, and evaluation errors under failurePolicy Fail and Ignore', async () => {
    const s = await scenario({ nodes: { count: 1 } });
    try {
      await s.apply(policy() + '---' + binding('Deny'));
      await s.cluster.advance(1000);
      const r = await createDeployment(s, 'web', 1);
      assert.equal(r.code, 422);
      assert.equal(r.body['message'], "deployments.apps \"web\" is forbidden: ValidatingAdmissionPolicy 'replica-limit.example.com' with binding 'replica-limit-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction");
      await s.apply(params.replace('"5"', '"five"'));
      await s.cluster.advance(1000);
      const e = await createDeployment(s, 'web', 1);
      assert.equal(e.code, 422);
      assert.match(String(e.body['message']), /denied request: expression 'object.spec.replicas <= variables.limit' resulted in error: composited variable "limit" fails to evaluate: /);
      await s.apply(policy().replace('failurePolicy: Fail', 'failurePolicy: Ignore'));
      await s.cluster.advance(1000);
      const ignored = await createDeployment(s, 'web', 1);
      assert.equal(ignored.code, 201);
    } finally {
      await s.close();
    }
  });

  it('type checking: the status controller records warnings against the matched kinds\' schemas', async () => {
    const s = await scenario({ nodes: { count: 1 } });
    try {
      await s.apply(`
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: typecheck.example.com}
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [deployments]
  validations:
  - expression: "object.spec.replicas > '1'"
    messageExpression: "'wants replicas > 1, got ' + object.spec.replicas"
  - expression: "object.spec.replicas > 1"
`);
      await s.cluster.advance(2000);
      await s.cluster.settle();
      const r = await s.cluster.drive(s.cluster.server.handle({ verb: 'get', group: 'admissionregistration.k8s.io', version: 'v1', resource: 'validatingadmissionpolicies', name: 'typecheck.example.com', user: ADMIN_USER }));
      assert.deepEqual((r.body as { status?: unknown }).status, {
        observedGeneration: 1,
        typeChecking: {
          expressionWarnings: [
            { fieldRef: 'spec.validations[0].expression', warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:22: found no matching overload for '_>_' applied to '(int, string)'\n | object.spec.replicas > '1'\n | .....................^\n" },
            { fieldRef: 'spec.validations[0].messageExpression', warning: "apps/v1, Kind=Deployment: ERROR: <input>:1:28: found no matching overload for '_+_' applied to '(string, int)'\n | 'wants replicas > 1, got ' + object.spec.replicas\n | ...........................^\n" },
          ],
        },
      });
    } finally {
      await s.close();
    }
  });
  it('runtime cost: the per-call limit, the budget a binding\'s validations share, and a variable that calls the authorizer', async () => {
    const s = await scenario({ nodes: { count: 1 } });
    const costly = (name: string, validations: string[], variables = ''): string => `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: ${name}}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  matchConditions:
  - {name: mine, expression: "object.metadata.name.startsWith('${name}')"}
${variables}  validations:
${validations.map((v) => `  - expression: "${v}"`).join('\n')}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: ${name}-binding}
spec: {policyName: ${name}, validationActions: [Deny]}
`;
    try {
      const quadratic = 'lists.range(2000).all(i, lists.range(2000).all(j, i >= 0))';
      // each of these costs 990,001; eleven of them pass the 10,000,000 a binding may spend
      const linear = 'lists.range(330000).all(i, true)';
      await s.apply(
        costly('percall', [quadratic]) +
          '---' +
          costly('budget', Array.from({ length: 11 }, () => linear)) +
          '---' +
          costly('authz', ['variables.allowed', '!variables.allowed'], "  variables:\n  - {name: allowed, expression: \"authorizer.group('apps').resource('deployments').namespace('default').check('create').allowed()\"}\n"),
      );
      await s.cluster.advance(1000);
      const perCall = await createDeployment(s, 'percall', 1);
      assert.equal(perCall.code, 422);
      assert.equal(perCall.body['message'], `deployments.apps "percall" is forbidden: ValidatingAdmissionPolicy 'percall' with binding 'percall-binding' denied request: expression '${quadratic}' resulted in error: operation cancelled: actual cost limit exceeded`);
      const budget = await createDeployment(s, 'budget', 1);
      assert.equal(budget.code, 422);
      assert.equal(budget.body['message'], "deployments.apps \"budget\" is forbidden: ValidatingAdmissionPolicy 'budget' with binding 'budget-binding' denied request: validation failed due to running out of cost budget, no further validation rules will be run");
      const authz = await createDeployment(s, 'authz', 1);
      assert.equal(authz.code, 422);
      assert.equal(authz.body['message'], "deployments.apps \"authz\" is forbidden: ValidatingAdmissionPolicy 'authz' with binding 'authz-binding' denied request: failed expression: !variables.allowed");
    } finally {
      await s.close();
    }
  });
  it('a namespaceSelector matches a namespace created a moment before, which the informer has not heard of yet', async () => {
    const s = await scenario({ nodes: { count: 1 } });
    const selected = `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: fresh}
spec:
  failurePolicy: Fail
  matchConstraints:
    namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: fresh}}
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
  - expression: "object.spec.replicas <= 3"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: fresh-binding}
spec: {policyName: fresh, validationActions: [Deny]}
`;
    const deployment = (ns: string, replicas: number): string => `
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: ${ns}}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec: {containers: [{name: c, image: nginx:1.27}]}
`;
    try {
      await s.apply(selected);
      await s.cluster.advance(1000);
      // the Namespace and the Deployment in one apply, as `kubectl apply -f` of one file sends them
      await s.apply(`apiVersion: v1\nkind: Namespace\nmetadata: {name: other}\n---${deployment('other', 5)}`);
      await assert.rejects(s.apply(`apiVersion: v1\nkind: Namespace\nmetadata: {name: fresh}\n---${deployment('fresh', 5)}`), /ValidatingAdmissionPolicy 'fresh' with binding 'fresh-binding' denied request: failed expression: object.spec.replicas <= 3/);
      await s.apply(deployment('fresh', 2));
    } finally {
      await s.close();
    }
  });
});
