/**
 * Pod Security admission on the full cluster, its three modes as a user meets them: enforce
 * keeps a Deployment's pods from being created (the ReplicaSet's FailedCreate events carry the
 * refusal) while a compliant one runs; warn admits with a warning; audit admits silently and
 * annotates the request's audit event.
 */
import { strict as assert } from 'node:assert';
import { scenario, deployment } from './support';
import { ADMIN_USER } from '../../src/engine/apiserver/authn/user';
import type { ApiRequestRecord } from '../../src/engine/trace/apiserver';
import type { JsonObject } from '../../src/engine/api/types';

const RESTRICTED_NGINX =
  'allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false), ' +
  'unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"]), ' +
  'runAsNonRoot != true (pod or container "web" must set securityContext.runAsNonRoot=true), ' +
  'seccompProfile (pod or container "web" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")';

const namespaceYaml = (name: string, labels: Record<string, string>): string =>
  `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${name}\n  labels:\n${Object.entries(labels)
    .map(([k, v]) => `    ${k}: ${v}`)
    .join('\n')}\n`;

const hardened = (yaml: string): string =>
  yaml.replace(
    '      containers:\n      - name: web\n',
    '      securityContext:\n        runAsNonRoot: true\n        seccompProfile:\n          type: RuntimeDefault\n      containers:\n      - name: web\n        securityContext:\n          allowPrivilegeEscalation: false\n          capabilities:\n            drop: ["ALL"]\n',
  );

describe('scenario: PodSecurity admission', function () {
  this.timeout(60_000);

  it('enforce: a restricted namespace refuses the pods of a non-compliant Deployment and runs a compliant one', async () => {
    const s = await scenario();
    try {
      await s.apply(namespaceYaml('psa', { 'pod-security.kubernetes.io/enforce': 'restricted' }));
      const res = await s.cluster.drive(s.cluster.server.handle({
        verb: 'create', user: ADMIN_USER, group: 'apps', version: 'v1', resource: 'deployments', namespace: 'psa',
        body: { text: deployment('web', 2, { namespace: 'psa' }), contentType: 'application/yaml' },
      }));
      assert.equal(res.code, 201);
      // Warn follows a stricter enforce level: the Deployment is admitted with the warning.
      assert.deepEqual(res.warnings, [`would violate PodSecurity "restricted:latest": ${RESTRICTED_NGINX}`]);
      await s.apply(hardened(deployment('safe', 2, { namespace: 'psa' })));
      await s.cluster.settle();
      const pods = await s.pods('psa');
      assert.deepEqual(pods.map((p) => p.metadata.labels?.app).sort(), ['safe', 'safe']);
      assert.ok(pods.every((p) => p.status?.phase === 'Running'));
      const failed = s.events((e) => e.reason === 'FailedCreate');
      assert.ok(failed.length > 0, 'the ReplicaSet reports its refused creates');
      assert.match(failed[0]!, new RegExp(`^Warning FailedCreate ReplicaSet psa/web-[a-z0-9]+: Error creating: pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: violates PodSecurity "restricted:latest": ${RESTRICTED_NGINX.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    } finally {
      await s.close();
    }
  });

  it('warn: a baseline warn namespace admits a privileged pod with the warning, and it runs', async () => {
    const s = await scenario();
    try {
      await s.apply(namespaceYaml('warned', { 'pod-security.kubernetes.io/warn': 'baseline' }));
      await s.cluster.settle();
      const pod: JsonObject = {
        apiVersion: 'v1', kind: 'Pod', metadata: { name: 'root' },
        spec: { hostNetwork: true, containers: [{ name: 'c', image: 'busybox:1.36', securityContext: { privileged: true } }] },
      };
      const res = await s.cluster.drive(s.cluster.server.handle({ verb: 'create', user: ADMIN_USER, group: '', version: 'v1', resource: 'pods', namespace: 'warned', body: { object: pod } }));
      assert.equal(res.code, 201);
      assert.deepEqual(res.warnings, ['would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true), privileged (container "c" must not set securityContext.privileged=true)']);
      await s.cluster.settle();
      const [running] = await s.pods('warned');
      assert.equal(running?.status?.phase, 'Running');
    } finally {
      await s.close();
    }
  });

  it('audit: a restricted audit namespace admits without a word and annotates the audit event', async () => {
    const s = await scenario();
    try {
      await s.apply(namespaceYaml('audited', { 'pod-security.kubernetes.io/audit': 'restricted', 'pod-security.kubernetes.io/audit-version': 'v1.35' }));
      await s.cluster.settle();
      const pod: JsonObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'p', image: 'nginx:1.27' }] } };
      const res = await s.cluster.drive(s.cluster.server.handle({ verb: 'create', user: ADMIN_USER, group: '', version: 'v1', resource: 'pods', namespace: 'audited', body: { object: pod } }));
      assert.equal(res.code, 201);
      assert.deepEqual(res.warnings, []);
      const record = s.cluster.trace.since(0).find((r): r is ApiRequestRecord => r.id === res.trace);
      assert.deepEqual(record?.auditAnnotations, {
        'pod-security.kubernetes.io/enforce-policy': 'privileged:latest',
        'pod-security.kubernetes.io/audit-violations': `would violate PodSecurity "restricted:v1.35": ${RESTRICTED_NGINX.replaceAll('"web"', '"p"')}`,
      });
    } finally {
      await s.close();
    }
  });
});
