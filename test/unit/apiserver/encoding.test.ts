/**
 * Stored and served objects are what encoding/json makes of kube-apiserver's Go types: omitempty
 * fields gone when empty, the others always there (nil slices as null, zero metav1.Time as null,
 * structs as {}), pointers keeping explicit zeros, fields in Go's order and map keys sorted.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isObject, parseApiVersion, type JsonObject, type JsonValue, type KubeObject } from '../../../src/engine/api/types';
import { encodeLikeGo, keyBefore } from '../../../src/engine/apiserver/encoding/go-json';
import { kindDefinition, OMITEMPTY, OMITZERO, structFields } from '../../../src/engine/apiserver/encoding/go-json-table';
import { harness, type Harness } from './harness';
import { namespace, serviceAccount } from './fixtures';

const CASES = join(__dirname, '..', '..', 'conformance', 'cases');

/** Go's invariants of the encoding of a struct, checked field by field against the table (a test oracle). */
function checkGoShape(value: JsonValue, code: string, path: string, problems: string[]): void {
  if (value === null) return;
  switch (code[0]) {
    case '*':
      return checkGoShape(value, code.slice(1), path, problems);
    case '[':
      if (Array.isArray(value)) value.forEach((v, i) => checkGoShape(v, code.slice(1), `${path}[${i}]`, problems));
      return;
    case '{':
      if (isObject(value)) {
        const keys = Object.keys(value);
        if (keys.some((k, i) => i > 0 && !keyBefore(keys[i - 1]!, k))) problems.push(`${path}: map keys not sorted`);
        for (const k of keys) checkGoShape(value[k]!, code.slice(1), `${path}[${k}]`, problems);
      }
      return;
    case '@': {
      if (!isObject(value)) return;
      const fields = structFields(code.slice(1));
      const known = fields.filter(([name]) => name in value).map(([name]) => name);
      const order = Object.keys(value).filter((k) => fields.some(([name]) => name === k));
      if (known.join(',') !== order.join(',')) problems.push(`${path}: fields not in Go's order: ${order.join(',')}`);
      for (const [name, flags, fieldCode] of fields) {
        const v = value[name];
        const p = path ? `${path}.${name}` : name;
        const emptyable = '*[{sbnB'.includes(fieldCode[0]!);
        if (v === undefined) {
          const omitted = (flags & OMITEMPTY && emptyable) || (flags & OMITZERO && fieldCode === 't');
          if (!omitted) problems.push(`${p}: missing (no omitempty)`);
          continue;
        }
        if (flags & OMITEMPTY && emptyable) {
          const empty = v === null || v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0) || (isObject(v) && fieldCode[0] === '{' && Object.keys(v).length === 0);
          if (empty && fieldCode[0] !== '*') problems.push(`${p}: empty value despite omitempty`);
          if (v === null && fieldCode[0] === '*') problems.push(`${p}: nil pointer despite omitempty`);
        }
        checkGoShape(v, fieldCode, p, problems);
      }
      return;
    }
    default:
  }
}

function goShapeProblems(obj: KubeObject): string[] {
  const { group, version } = parseApiVersion(obj.apiVersion);
  const def = kindDefinition(group, version, obj.kind);
  if (!def) return [];
  const problems: string[] = [];
  checkGoShape(obj as unknown as JsonObject, `@${def}`, '', problems);
  return problems;
}

describe('apiserver: Go JSON encoding of stored objects', () => {
  it('round-trips every object of the conformance corpus into Go shape, and a second pass changes nothing', () => {
    let checked = 0;
    for (const file of readdirSync(CASES).filter((f) => f.endsWith('.json'))) {
      for (const c of JSON.parse(readFileSync(join(CASES, file), 'utf8')) as { name: string; object?: KubeObject; old?: KubeObject }[]) {
        for (const obj of [c.object, c.old]) {
          if (!obj || typeof obj.apiVersion !== 'string' || !isObject(obj.metadata)) continue;
          const once = encodeLikeGo(obj);
          assert.deepEqual(goShapeProblems(once), [], `${file}: ${c.name}`);
          assert.equal(encodeLikeGo(once), once, `${file}: ${c.name}: encoding is idempotent`);
          checked++;
        }
      }
    }
    assert.ok(checked > 900, `${checked} objects`);
  });

  it('keeps an object already in Go shape, and its unknown fields after the known ones', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { b: '1', a: '2' } } as KubeObject;
    const encoded = encodeLikeGo(cm);
    assert.equal(JSON.stringify(encoded), '{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"a"},"data":{"a":"2","b":"1"}}');
    assert.equal(encodeLikeGo(encoded), encoded);
    assert.equal(encodeLikeGo(encoded).data, encoded.data);
    const custom = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', labels: {} }, spec: { size: 1, color: null, tags: [] } } as KubeObject;
    assert.equal(JSON.stringify(encodeLikeGo(custom)), '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"labels":{},"name":"w"},"spec":{"color":null,"size":1,"tags":[]}}', 'custom resources: unstructured, keys sorted, nothing dropped');
  });

  it('keeps explicit zero values of pointer fields and drops empty omitempty ones', () => {
    const d = encodeLikeGo({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd', labels: {}, finalizers: [] },
      spec: {
        replicas: 0,
        paused: false,
        minReadySeconds: 0,
        selector: { matchLabels: { a: 'b' }, matchExpressions: null },
        template: { metadata: { labels: { a: 'b' } }, spec: { automountServiceAccountToken: false, terminationGracePeriodSeconds: 0, containers: [{ name: 'c', image: 'i', args: [] }] } },
      },
    } as KubeObject);
    assert.deepEqual(d.metadata, { name: 'd' });
    assert.equal(
      JSON.stringify(d.spec),
      '{"replicas":0,"selector":{"matchLabels":{"a":"b"}},"template":{"metadata":{"labels":{"a":"b"}},"spec":{"containers":[{"name":"c","image":"i","resources":{}}],"terminationGracePeriodSeconds":0,"automountServiceAccountToken":false}},"strategy":{}}',
    );
    assert.deepEqual(d.status, {});
  });
});

describe('apiserver: objects as kube-apiserver stores and serves them', () => {
  let h: Harness;
  beforeEach(async () => {
    h = await harness({ compactionIntervalMs: 0 });
    await h.create(namespace('default'));
    await h.create(serviceAccount('default'), 'default');
  });
  afterEach(() => h.close());

  const stored = async (key: string): Promise<JsonObject> => JSON.parse((await h.store.range({ key })).kvs[0]!.value) as JsonObject;

  it('a strategic merge patch removing the last owner reference leaves none (not [])', async () => {
    await h.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', ownerReferences: [{ apiVersion: 'v1', kind: 'Pod', name: 'p', uid: 'u-1' }] } }, 'default');
    const res = await h.req({ verb: 'patch', resource: 'configmaps', namespace: 'default', name: 'c', patchType: 'strategic', body: { object: { metadata: { ownerReferences: [{ $patch: 'delete', uid: 'u-1' }] } } } });
    assert.equal(res.code, 200, JSON.stringify(res.body));
    assert.equal('ownerReferences' in (res.body.metadata as JsonObject), false);
    assert.equal('ownerReferences' in ((await stored('/registry/configmaps/default/c')).metadata as JsonObject), false);
  });

  it('an EndpointSlice without endpoints or ports stores and serves them as null', async () => {
    const created = await h.create({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-abc' }, addressType: 'IPv4' }, 'default');
    const { metadata: _m, ...rest } = created;
    assert.deepEqual(rest, { kind: 'EndpointSlice', apiVersion: 'discovery.k8s.io/v1', addressType: 'IPv4', endpoints: null, ports: null });
    const raw = await stored('/registry/endpointslices/default/web-abc');
    assert.equal(raw.endpoints, null);
  });

  it('a Pod: resources {}, securityContext {}, and status as the API server leaves it', async () => {
    const pod = await h.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'nginx', labels: { run: 'nginx' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } }, 'default');
    const spec = pod.spec as JsonObject;
    const c = (spec.containers as JsonObject[])[0]!;
    assert.deepEqual(Object.keys(c), ['name', 'image', 'resources', 'volumeMounts', 'terminationMessagePath', 'terminationMessagePolicy', 'imagePullPolicy']);
    assert.deepEqual(c.resources, {});
    assert.deepEqual(spec.securityContext, {});
    assert.deepEqual(Object.keys(spec), [
      'volumes', 'containers', 'restartPolicy', 'terminationGracePeriodSeconds', 'dnsPolicy', 'serviceAccountName', 'serviceAccount',
      'securityContext', 'schedulerName', 'tolerations', 'priority', 'enableServiceLinks', 'preemptionPolicy',
    ]);
    assert.deepEqual(pod.status, { phase: 'Pending', qosClass: 'BestEffort' });
    assert.deepEqual(Object.keys(pod).slice(0, 3), ['kind', 'apiVersion', 'metadata']);
  });

  it('pod conditions carry lastProbeTime: null (a zero metav1.Time)', async () => {
    const pod = await h.create({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, 'default');
    const status = { ...pod, status: { ...(pod.status as JsonObject), conditions: [{ type: 'PodScheduled', status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z' }] } };
    const res = await h.req({ verb: 'update', resource: 'pods', subresource: 'status', namespace: 'default', name: 'p', body: { object: status } });
    assert.equal(res.code, 200, JSON.stringify(res.body));
    assert.deepEqual((res.body.status as JsonObject).conditions, [{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: '2025-01-01T00:00:00Z' }]);
  });

  it('a Deployment: Go field order, the template without creationTimestamp (omitzero in 1.35), status {}', async () => {
    const d = await h.create(
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'web' },
        spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
      },
      'default',
    );
    assert.equal(
      JSON.stringify(d.spec),
      '{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"nginx","image":"nginx:1.27","resources":{},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","securityContext":{},"schedulerName":"default-scheduler"}},"strategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":"25%","maxSurge":"25%"}},"revisionHistoryLimit":10,"progressDeadlineSeconds":600}',
    );
    assert.deepEqual(d.status, {});
  });

  it('a Service: ports in ServicePort order, status.loadBalancer {}', async () => {
    const svc = await h.create({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] } }, 'default');
    const spec = svc.spec as JsonObject;
    assert.equal(JSON.stringify(spec.ports), '[{"protocol":"TCP","port":80,"targetPort":8080}]');
    assert.deepEqual(Object.keys(spec), ['ports', 'selector', 'clusterIP', 'clusterIPs', 'type', 'sessionAffinity', 'ipFamilies', 'ipFamilyPolicy', 'internalTrafficPolicy']);
    assert.deepEqual(svc.status, { loadBalancer: {} });
  });

  it('a Node: the zero daemon endpoint and node info structs', async () => {
    const node = await h.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { capacity: { pods: '110', cpu: '2' } } });
    const status = node.status as JsonObject;
    assert.deepEqual(status.capacity, { cpu: '2', pods: '110' });
    assert.deepEqual(status.daemonEndpoints, { kubeletEndpoint: { Port: 0 } });
    assert.deepEqual(Object.keys(status.nodeInfo as JsonObject), [
      'machineID', 'systemUUID', 'bootID', 'kernelVersion', 'osImage', 'containerRuntimeVersion', 'kubeletVersion', 'kubeProxyVersion', 'operatingSystem', 'architecture',
    ]);
  });

  it('an update that only differs in what Go does not write is no change (no new revision)', async () => {
    const cm = await h.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: '1' } }, data: { k: 'v' } }, 'default');
    const same = { ...cm, metadata: { ...(cm.metadata as JsonObject), annotations: {}, finalizers: [] }, binaryData: {} };
    const res = await h.req({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'c', body: { object: same } });
    assert.equal(res.code, 200);
    assert.equal((res.body.metadata as JsonObject).resourceVersion, (cm.metadata as JsonObject).resourceVersion);
  });
});
