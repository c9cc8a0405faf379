/**
 * CEL in the editor: a compile error sits under the character cel-go points at, whatever the
 * YAML quoting; a policy in the cluster marks the objects it would deny.
 */
import { strict as assert } from 'node:assert';
import type { Diagnostic } from 'vscode-languageserver';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import { MirrorCluster } from '../../../src/server/mirror/mirror-cluster';
import { FileValidator } from '../../../src/server/validation/file-validator';

type Row = [line: number, char: number, endLine: number, endChar: number, severity: number, message: string];
const rows = (ds: Diagnostic[]): Row[] => ds.map((d) => [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character, d.severity!, d.message.split('\n')[0]!]);

const policy = (validation: string): string => `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: limit.example.com
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [deployments]
  validations:
${validation}`;

const SYNTAX = "compilation failed: ERROR: <input>:1:25: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";

describe('server: CEL diagnostics', function () {
  this.timeout(30_000);
  let mirror: MirrorCluster;
  let file: FileValidator;
  const validate = (text: string) => file.validate(text, { user: ADMIN_USER, fieldValidation: 'Strict' }, () => true);

  beforeEach(async () => {
    mirror = await MirrorCluster.create();
    file = new FileValidator('test.yaml', mirror);
  });
  afterEach(async () => {
    file.dispose();
    await mirror.close();
  });

  it('puts a compile error under the character cel-go names, in plain, quoted and block scalars', async () => {
    // "object.spec.replicas <= " fails at its end (column 25): the character after "<= "
    assert.deepEqual(rows(await validate(policy('  - expression: "object.spec.replicas <= "\n'))), [
      [13, 41, 13, 42, 1, `spec.validations[0].expression: Invalid value: "object.spec.replicas <= ": ${SYNTAX}`],
    ]);
    assert.deepEqual(rows(await validate(policy("  - expression: 'object.spec.replicas <= '\n"))).map((r) => r.slice(0, 4)), [[13, 41, 13, 42]]);
    // undeclared reference: at the identifier, line 2 of a literal block
    const block = await validate(policy('  - expression: |\n      object.spec.replicas < 5 &&\n      objekt.spec.paused\n'));
    assert.deepEqual(rows(block).map((r) => r.slice(0, 4)), [[15, 6, 15, 7]]);
    assert.match(block[0]!.message, /undeclared reference to 'objekt'/);
    // a plain scalar: the operator of the bad overload
    assert.deepEqual(rows(await validate(policy('  - expression: request.name + 1 == "x"\n'))).map((r) => r.slice(0, 4)), [[13, 29, 13, 30]]);
  });

  it('marks a CRD rule that does not compile at the rule', async () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.replica > 1"
            properties:
              replicas: {type: integer}
`;
    const ds = await validate(crd);
    assert.deepEqual(rows(ds).map((r) => r.slice(0, 4)), [[19, 25, 19, 26]]);
    assert.match(ds[0]!.message, /undefined field 'replica'/);
  });

  it('shows the denial of a policy in the cluster on the object it would deny', async () => {
    const vap = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name: 'limit.example.com', uid: 'p1', resourceVersion: '10', generation: 1, creationTimestamp: '2025-01-01T00:00:00Z' },
      spec: {
        failurePolicy: 'Fail',
        matchPolicy: 'Equivalent',
        matchConstraints: { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {}, resourceRules: [{ apiGroups: ['apps'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'], scope: '*' }] },
        validations: [{ expression: 'object.spec.replicas <= 3', message: 'at most 3 replicas' }],
      },
    };
    const binding = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name: 'limit-binding', uid: 'b1', resourceVersion: '11', generation: 1, creationTimestamp: '2025-01-01T00:00:00Z' },
      spec: { policyName: 'limit.example.com', validationActions: ['Deny'] },
    };
    await mirror.sync({ events: [{ type: 'ADDED', object: vap }, { type: 'ADDED', object: binding }] });
    assert.deepEqual((await mirror.state()).rejected, []);
    const deployment = (replicas: number) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.27
`;
    assert.deepEqual(rows(await validate(deployment(2))), []);
    const denied = rows(await validate(deployment(5)));
    assert.equal(denied.length, 1);
    assert.equal(denied[0]![5], ": ValidatingAdmissionPolicy 'limit.example.com' with binding 'limit-binding' denied request: at most 3 replicas");
  });
});
