/**
 * PodSecurity admission through the API server: namespace labels (validation, defaults, warn
 * following enforce), raising an enforce level over existing pods, exemptions and the plugin's
 * configuration, pod updates, and the audit annotations.
 */
import { strict as assert } from 'node:assert';
import type { JsonObject } from '../../../src/engine/api/types';
import { harness, type Harness } from './harness';
import { serviceAccount } from './fixtures';
import { PodSecurity } from '../../../src/engine/apiserver/admission/podsecurity/plugin';
import { policyToEvaluate } from '../../../src/engine/apiserver/admission/podsecurity/api';
import { resolveConfiguration } from '../../../src/engine/apiserver/admission/podsecurity/config';
import type { PodSecurityConfiguration } from '../../../src/engine/apiserver/admission/podsecurity/config';

const ENFORCE = 'pod-security.kubernetes.io/enforce';
const nginx = (name: string, extra: JsonObject = {}): JsonObject => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name, ...((extra.metadata as JsonObject) ?? {}) },
  spec: { containers: [{ name, image: 'nginx:1.27' }], ...((extra.spec as JsonObject) ?? {}) },
});
const RESTRICTED_REASONS = 'allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile';

describe('PodSecurity admission', () => {
  let h: Harness;
  const ns = async (name: string, labels: Record<string, string> = {}): Promise<void> => {
    await h.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
    await h.create(serviceAccount('default'), name);
  };
  const label = (name: string, labels: Record<string, string | null>) =>
    h.req({ verb: 'patch', resource: 'namespaces', name, patchType: 'merge', body: { object: { metadata: { labels } } } });
  const createPod = (namespace: string, pod: JsonObject, user?: Harness['req'] extends (r: infer R) => unknown ? R : never) =>
    h.req({ verb: 'create', resource: 'pods', namespace, body: { object: pod }, ...(user ?? {}) });

  const start = async (podSecurity?: PodSecurityConfiguration): Promise<void> => {
    h = await harness(podSecurity ? { podSecurity } : {});
  };
  afterEach(() => h.close());

  it('admits everything in an unlabelled namespace: privileged is the default', async () => {
    await start();
    await ns('open');
    const res = await createPod('open', nginx('p', { spec: { hostNetwork: true } }));
    assert.equal(res.code, 201);
    assert.deepEqual(res.warnings, []);
    assert.deepEqual(res.auditAnnotations, { 'pod-security.kubernetes.io/enforce-policy': 'privileged:latest' });
  });

  it('kube-system is not exempt by default', async () => {
    await start();
    await ns('kube-system', { [ENFORCE]: 'baseline' });
    const res = await createPod('kube-system', nginx('p', { spec: { hostPID: true } }));
    assert.equal(res.code, 403);
    assert.equal(res.body.message, 'pods "p" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)');
    assert.equal(res.body.reason, 'Forbidden');
    assert.deepEqual(res.body.details, { name: 'p', kind: 'pods' });
  });

  it('refuses invalid policy labels on create and on an update that changes them, with upstream texts', async () => {
    await start();
    const res = await h.req({ verb: 'create', resource: 'namespaces', body: { object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bad', labels: { [ENFORCE]: 'strict', 'pod-security.kubernetes.io/warn-version': 'v2.0' } } } } });
    assert.equal(res.code, 422);
    assert.equal(
      res.body.message,
      'Namespace "bad" is invalid: [metadata.labels[pod-security.kubernetes.io/enforce]: Invalid value: "strict": must be one of privileged, baseline, restricted, metadata.labels[pod-security.kubernetes.io/warn-version]: Invalid value: "v2.0": must be "latest" or "v1.x"]',
    );
    await ns('ok');
    const upd = await label('ok', { 'pod-security.kubernetes.io/audit': 'none' });
    assert.equal(upd.code, 422);
    assert.equal(upd.body.message, 'Namespace "ok" is invalid: metadata.labels[pod-security.kubernetes.io/audit]: Invalid value: "none": must be one of privileged, baseline, restricted');
  });

  it('resolves labels as upstream: an invalid enforce level enforces restricted, invalid audit and warn fail open, warn follows enforce', () => {
    const defaults = resolveConfiguration().defaults;
    const p = policyToEvaluate({ [ENFORCE]: 'strict', 'pod-security.kubernetes.io/audit': 'x', 'pod-security.kubernetes.io/warn': 'y' }, defaults).policy;
    assert.equal(p.enforce.level, 'restricted');
    assert.equal(p.audit.level, 'privileged');
    assert.equal(p.warn.level, 'privileged');
    const q = policyToEvaluate({ [ENFORCE]: 'baseline', 'pod-security.kubernetes.io/enforce-version': 'v1.30' }, defaults).policy;
    assert.deepEqual(q.warn, { level: 'baseline', version: { minor: 30, latest: false } });
  });

  it('holds a namespace whose labels do not parse to restricted', async () => {
    await start();
    const psa = new PodSecurity();
    const { policy, errors } = psa.policyFor({ [ENFORCE]: 'strict' });
    assert.equal(policy.enforce.level, 'restricted');
    assert.equal(errors.length, 1);
  });

  it('warns about existing pods when the enforce level is raised, grouping them as upstream does', async () => {
    await start();
    await ns('shop');
    for (const n of ['c', 'a', 'b']) assert.equal((await createPod('shop', nginx(n))).code, 201);
    assert.equal((await createPod('shop', nginx('z', { spec: { hostIPC: true } }))).code, 201);
    await h.synced();
    const res = await label('shop', { [ENFORCE]: 'restricted' });
    assert.equal(res.code, 200);
    assert.deepEqual(res.warnings, [
      'existing pods in namespace "shop" violate the new PodSecurity enforce level "restricted:latest"',
      `a (and 2 other pods): ${RESTRICTED_REASONS}`,
      `z: host namespaces, ${RESTRICTED_REASONS}`,
    ]);
    // Relaxing the level, or keeping it, checks nothing.
    await h.synced();
    assert.deepEqual((await label('shop', { [ENFORCE]: 'baseline' })).warnings, []);
    const v = await label('shop', { [ENFORCE]: 'restricted', 'pod-security.kubernetes.io/enforce-version': 'v1.20' });
    assert.deepEqual(v.warnings, [
      'existing pods in namespace "shop" violate the new PodSecurity enforce level "restricted:v1.20"',
      'a (and 2 other pods): allowPrivilegeEscalation != false, runAsNonRoot != true, seccompProfile',
      'z: host namespaces, allowPrivilegeEscalation != false, runAsNonRoot != true, seccompProfile',
    ]);
  });

  it('reports one pod and then the other pods of a controller', async () => {
    await start();
    await ns('rs');
    const owned = (name: string, uid: string): JsonObject =>
      nginx(name, { metadata: { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid, controller: true }] } });
    for (const n of ['web-1', 'web-2']) assert.equal((await createPod('rs', owned(n, 'u1'))).code, 201);
    await h.synced();
    const res = await label('rs', { [ENFORCE]: 'baseline' });
    assert.deepEqual(res.warnings, []);
    const r = await label('rs', { [ENFORCE]: 'restricted' });
    assert.deepEqual(r.warnings, ['existing pods in namespace "rs" violate the new PodSecurity enforce level "restricted:latest"', `web-1 (and 1 other pod): ${RESTRICTED_REASONS}`]);
  });

  it('exempts the configured users, namespaces and runtime classes, and tells an exempt namespace its policy is ignored', async () => {
    await start({ exemptions: { usernames: ['ci-bot'], namespaces: ['infra'], runtimeClasses: ['kata'] } });
    await ns('infra');
    await ns('locked', { [ENFORCE]: 'restricted' });
    const upd = await label('infra', { [ENFORCE]: 'restricted', 'pod-security.kubernetes.io/warn': 'baseline' });
    assert.deepEqual(upd.warnings, ['namespace "infra" is exempt from Pod Security, and the policy (enforce=restricted:latest, warn=baseline:latest) will be ignored']);
    const inInfra = await createPod('infra', nginx('p'));
    assert.equal(inInfra.code, 201);
    assert.deepEqual(inInfra.auditAnnotations, { 'pod-security.kubernetes.io/exempt': 'namespace' });
    const kata = await createPod('locked', nginx('k', { spec: { runtimeClassName: 'kata' } }));
    assert.equal(kata.code, 201, String(kata.body.message));
    assert.deepEqual(kata.auditAnnotations, { 'pod-security.kubernetes.io/exempt': 'runtimeClass' });
    const bot = await createPod('locked', nginx('b'), { user: { username: 'ci-bot', groups: ['system:masters', 'system:authenticated'] } } as never);
    assert.equal(bot.code, 201);
    assert.deepEqual(bot.auditAnnotations, { 'pod-security.kubernetes.io/exempt': 'user' });
    assert.equal((await createPod('locked', nginx('n'))).code, 403);
  });

  it('takes its defaults from the configuration, and refuses an invalid one', async () => {
    await start({ defaults: { enforce: 'baseline', warn: 'restricted', 'warn-version': 'v1.30' } });
    await ns('plain');
    const res = await createPod('plain', nginx('p', { spec: { hostPID: true } }));
    assert.equal(res.body.message, 'pods "p" is forbidden: violates PodSecurity "baseline:latest": host namespaces (hostPID=true)');
    const ok = await createPod('plain', nginx('q'));
    assert.equal(ok.code, 201);
    assert.deepEqual(ok.warnings, [
      'would violate PodSecurity "restricted:v1.30": allowPrivilegeEscalation != false (container "q" must set securityContext.allowPrivilegeEscalation=false), ' +
        'unrestricted capabilities (container "q" must set securityContext.capabilities.drop=["ALL"]), runAsNonRoot != true (pod or container "q" must set securityContext.runAsNonRoot=true), ' +
        'seccompProfile (pod or container "q" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")',
    ]);
    assert.throws(() => new PodSecurity({ defaults: { enforce: 'strict' }, exemptions: { usernames: ['', 'a', 'a'] } }), {
      message: 'PodSecurity invalid: defaults.enforce: Invalid value: "strict": must be one of privileged, baseline, restricted, exemptions.usernames[0]: Invalid value: "": username must not be empty, exemptions.usernames[2]: Duplicate value: "a"',
    });
  });

  it('re-checks a pod update only when an image or the containers change', async () => {
    await start();
    await ns('up');
    assert.equal((await createPod('up', nginx('p'))).code, 201);
    await label('up', { [ENFORCE]: 'restricted' });
    const relabel = await h.req({ verb: 'patch', resource: 'pods', namespace: 'up', name: 'p', patchType: 'merge', body: { object: { metadata: { labels: { a: 'b' } } } } });
    assert.equal(relabel.code, 200);
    const image = await h.req({ verb: 'patch', resource: 'pods', namespace: 'up', name: 'p', patchType: 'json', body: { object: [{ op: 'replace', path: '/spec/containers/0/image', value: 'nginx:1.28' }] } });
    assert.equal(image.code, 403);
    assert.match(String(image.body.message), /^pods "p" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false/);
  });

  it('warns on every workload resource and never refuses one', async () => {
    await start();
    await ns('wl', { [ENFORCE]: 'baseline' });
    const tpl = { metadata: { labels: { app: 'x' } }, spec: { hostNetwork: true, containers: [{ name: 'c', image: 'nginx:1.27' }] } };
    const want = ['would violate PodSecurity "baseline:latest": host namespaces (hostNetwork=true)'];
    const sel = { matchLabels: { app: 'x' } };
    const objects: [string, string, JsonObject][] = [
      ['apps', 'deployments', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'x' }, spec: { selector: sel, template: tpl } }],
      ['apps', 'replicasets', { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'x' }, spec: { selector: sel, template: tpl } }],
      ['apps', 'statefulsets', { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'x' }, spec: { selector: sel, serviceName: 'x', template: tpl } }],
      ['apps', 'daemonsets', { apiVersion: 'apps/v1', kind: 'DaemonSet', metadata: { name: 'x' }, spec: { selector: sel, template: tpl } }],
      ['batch', 'jobs', { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'x' }, spec: { template: { ...tpl, spec: { ...tpl.spec, restartPolicy: 'Never' } } } }],
      ['batch', 'cronjobs', { apiVersion: 'batch/v1', kind: 'CronJob', metadata: { name: 'x' }, spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { ...tpl, spec: { ...tpl.spec, restartPolicy: 'Never' } } } } } }],
      ['', 'replicationcontrollers', { apiVersion: 'v1', kind: 'ReplicationController', metadata: { name: 'x' }, spec: { selector: { app: 'x' }, template: tpl } }],
      ['', 'podtemplates', { apiVersion: 'v1', kind: 'PodTemplate', metadata: { name: 'x' }, template: tpl }],
    ];
    for (const [group, resource, object] of objects) {
      const res = await h.req({ verb: 'create', group, version: 'v1', resource, namespace: 'wl', body: { object } });
      assert.equal(res.code, 201, `${resource}: ${String(res.body.message)}`);
      assert.deepEqual(res.warnings, want, resource);
    }
  });
});
