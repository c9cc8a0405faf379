import { strict as assert } from 'node:assert';
import type { JsonObject } from '../../../src/engine/api/types';
import { harness, type Harness } from './harness';
import { namespace, pod, serviceAccount } from './fixtures';

const spec = (o: JsonObject): JsonObject => o.spec as JsonObject;
const pods = { resource: 'pods', namespace: 'default' } as const;

describe('apiserver admission', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness();
    await h.create(namespace('default'));
  });
  afterEach(() => h.close());

  it('NamespaceLifecycle: nothing is created in a namespace that does not exist', async () => {
    const res = await h.req({ verb: 'create', resource: 'configmaps', namespace: 'ghost', body: { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } } } });
    assert.equal(res.code, 404);
    assert.equal(res.body.message, 'namespaces "ghost" not found');
  });

  it('ServiceAccount: a pod needs its service account', async () => {
    const res = await h.req({ ...pods, verb: 'create', body: { object: pod('p') } });
    assert.equal(res.code, 403);
    assert.equal(res.body.message, 'pods "p" is forbidden: error looking up service account default/default: serviceaccount "default" not found');
  });

  it('ServiceAccount, DefaultTolerationSeconds and Priority shape a new pod as kube-apiserver 1.35 does', async () => {
    await h.create(serviceAccount('default'), 'default');
    const res = await h.req({ ...pods, verb: 'create', body: { object: pod('p') } });
    assert.equal(res.code, 201);
    const s = spec(res.body);
    assert.equal(s.serviceAccountName, 'default');
    assert.equal(s.priority, 0);
    assert.equal(s.preemptionPolicy, 'PreemptLowerPriority');
    assert.deepEqual(s.tolerations, [
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    const volumes = s.volumes as JsonObject[];
    assert.equal(volumes.length, 1);
    assert.match(String(volumes[0]!.name), /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    assert.deepEqual(volumes[0]!.projected, {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    });
    const mounts = (s.containers as JsonObject[])[0]!.volumeMounts;
    assert.deepEqual(mounts, [{ name: volumes[0]!.name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
    assert.deepEqual(res.body.status, { phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('DefaultTolerationSeconds runs on updates too: tolerations left out of an update come back', async () => {
    await h.create(serviceAccount('default'), 'default');
    const created = await h.req({ ...pods, verb: 'create', body: { object: { ...pod('p'), spec: { ...spec(pod('p')), tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'batch', effect: 'NoSchedule' }] } } } });
    assert.equal(created.code, 201);
    // A server-side apply of the manifest replaces the atomic list with the manifest's own.
    const body = { ...created.body, spec: { ...spec(created.body), tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'batch', effect: 'NoSchedule' }] } };
    const res = await h.req({ ...pods, verb: 'update', name: 'p', body: { object: body } });
    assert.equal(res.code, 200, String(res.body.message));
    assert.deepEqual(spec(res.body).tolerations, spec(created.body).tolerations);
    const changed = { ...created.body, spec: { ...spec(created.body), tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }] } };
    const refused = await h.req({ ...pods, verb: 'update', name: 'p', body: { object: changed } });
    assert.equal(refused.code, 422);
    assert.equal(refused.body.message, 'Pod "p" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds');
  });

  it('automountServiceAccountToken: false leaves the pod without the token volume', async () => {
    await h.create({ ...serviceAccount('default'), automountServiceAccountToken: false }, 'default');
    const res = await h.req({ ...pods, verb: 'create', body: { object: pod('p') } });
    assert.equal(spec(res.body).volumes, undefined);
  });

  it('Priority resolves priorityClassName and refuses unknown classes', async () => {
    await h.create(serviceAccount('default'), 'default');
    await h.create({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'high' }, value: 1000 });
    await h.synced();
    const ok = await h.req({ ...pods, verb: 'create', body: { object: pod('a', { priorityClassName: 'high' }) } });
    assert.equal(spec(ok.body).priority, 1000);
    const missing = await h.req({ ...pods, verb: 'create', body: { object: pod('b', { priorityClassName: 'nope' }) } });
    assert.equal(missing.code, 403);
    assert.equal(missing.body.message, 'pods "b" is forbidden: no PriorityClass with name nope was found');
    const second = await h.req({
      verb: 'create',
      group: 'scheduling.k8s.io',
      version: 'v1',
      resource: 'priorityclasses',
      body: { object: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'd2' }, value: 5, globalDefault: true } },
    });
    assert.equal(second.code, 201);
    await h.synced();
    const third = await h.req({
      verb: 'create',
      group: 'scheduling.k8s.io',
      version: 'v1',
      resource: 'priorityclasses',
      body: { object: { apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name: 'd3' }, value: 6, globalDefault: true } },
    });
    assert.equal(third.code, 403);
    assert.equal(third.body.message, 'priorityclasses.scheduling.k8s.io "d3" is forbidden: PriorityClass d2 is already marked as default. Only one default can exist');
  });

  it('LimitRanger fills in defaults and refuses what exceeds max', async () => {
    await h.create(serviceAccount('default'), 'default');
    await h.create(
      {
        apiVersion: 'v1',
        kind: 'LimitRange',
        metadata: { name: 'lr' },
        spec: { limits: [{ type: 'Container', default: { cpu: '500m' }, defaultRequest: { cpu: '100m' }, max: { cpu: '1' } }] },
      },
      'default',
    );
    const ok = await h.req({ ...pods, verb: 'create', body: { object: pod('a') } });
    assert.equal(ok.code, 201);
    const c = (spec(ok.body).containers as JsonObject[])[0]!;
    assert.deepEqual(c.resources, { limits: { cpu: '500m' }, requests: { cpu: '100m' } });
    assert.deepEqual((ok.body.metadata as JsonObject).annotations, {
      'kubernetes.io/limit-ranger': 'LimitRanger plugin set: cpu request for container c; cpu limit for container c',
    });
    const big = await h.req({ ...pods, verb: 'create', body: { object: pod('b', { containers: [{ name: 'c', image: 'nginx', resources: { limits: { cpu: '2' } } }] }) } });
    assert.equal(big.code, 403);
    assert.equal(big.body.message, 'pods "b" is forbidden: Maximum cpu usage per Container is 1, but limit is 2.');
  });

  it('ResourceQuota tracks usage in status.used and refuses what exceeds hard', async () => {
    await h.create({ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { configmaps: '2' } } }, 'default');
    await h.req({
      verb: 'update',
      resource: 'resourcequotas',
      subresource: 'status',
      namespace: 'default',
      name: 'q',
      body: { object: { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'q' }, spec: { hard: { configmaps: '2' } }, status: { hard: { configmaps: '2' }, used: { configmaps: '0' } } } },
    });
    const cm = (name: string) => ({ verb: 'create' as const, resource: 'configmaps', namespace: 'default', body: { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } } } });
    assert.equal((await h.req(cm('a'))).code, 201);
    const dry = await h.req({ ...cm('x'), options: { dryRun: true } });
    assert.equal(dry.code, 201);
    assert.equal((await h.req(cm('b'))).code, 201);
    const q = await h.req({ verb: 'get', resource: 'resourcequotas', namespace: 'default', name: 'q' });
    assert.deepEqual((q.body.status as JsonObject).used, { configmaps: '2' }, 'dry runs do not count');
    const over = await h.req(cm('c'));
    assert.equal(over.code, 403);
    assert.equal(over.body.message, 'configmaps "c" is forbidden: exceeded quota: q, requested: configmaps=1, used: configmaps=2, limited: configmaps=2');
  });

  it('the admission trace names each plugin that acted', async () => {
    await h.create(serviceAccount('default'), 'default');
    const res = await h.req({ ...pods, verb: 'create', body: { object: pod('p') } });
    const rec = h.server.trace.get(res.trace)!;
    assert.ok(rec.type === 'api.request');
    const mutated = rec.stages.filter((s) => s.stage === 'mutating-admission' && s.verdict === 'mutated').map((s) => s.rule);
    assert.deepEqual(mutated, ['ServiceAccount', 'Priority', 'DefaultTolerationSeconds']);
  });
});
