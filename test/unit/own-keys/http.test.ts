/**
 * Every built-in property name through the HTTP facade: as object names, namespaces, map keys and
 * values (labels, annotations, ConfigMap and Secret data, selectors, node selectors, env names,
 * struct fields kube-apiserver does not know, custom resources' schemas and fields), as kinds,
 * groups and resources in URLs, in label and field selectors, in every patch type, server-side
 * apply (field managers and managedFields), tables, and watch. Two clusters with the same seed get
 * the same requests, one with the names and one with their controls (test/support/builtin-names.ts):
 * every answer must be the same byte for byte once the controls are written back. A few answers
 * are also checked against kube-apiserver's own texts.
 */
import { strict as assert } from 'node:assert';
import { request } from 'node:https';
import { createCluster, type Cluster } from '../../../src/engine/cluster';
import { ADMIN_USER } from '../../../src/engine/apiserver/authn/user';
import { startApiEndpoint, type ApiEndpoint } from '../../../src/http';
import { BUILTIN_NAMES, control, restoreNames } from '../../support/builtin-names';

interface Step {
  method: string;
  path: string;
  body?: string;
  contentType?: string;
  accept?: string;
  /** A watch: opened by this step and answered (with every event it got) by the step that closes it. */
  watch?: 'open' | 'close';
}

interface Answer {
  status: number;
  contentType: string;
  warning: string;
  body: string;
}

interface Endpoint {
  cluster: Cluster;
  endpoint: ApiEndpoint;
  token: string;
  watch?: { text: string; status: number; contentType: string; close(): void };
}

async function start(): Promise<Endpoint> {
  // No pacer: the virtual clock stands still, so both clusters write the same timestamps.
  const cluster = await createCluster({ seed: 'builtin-names', bare: true });
  const endpoint = await startApiEndpoint({ api: cluster.api, clock: cluster.clock });
  return { cluster, endpoint, token: cluster.server.tokens.issue(ADMIN_USER) };
}

async function send(e: Endpoint, step: Step): Promise<Answer> {
  if (step.watch === 'close') {
    // Events are written before the write that caused them is answered; one more turn for the socket.
    await new Promise((r) => setTimeout(r, 20));
    const w = e.watch!;
    w.close();
    e.watch = undefined;
    return { status: w.status, contentType: w.contentType, warning: '', body: w.text };
  }
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${e.token}`, Accept: step.accept ?? 'application/json' };
    if (step.body !== undefined) {
      headers['Content-Type'] = step.contentType ?? 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(step.body));
    }
    const req = request(`${e.endpoint.url}${step.path}`, { method: step.method, headers, ca: e.endpoint.ca }, (res) => {
      const answer = (body: string) => ({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), warning: String(res.headers.warning ?? ''), body });
      if (step.watch === 'open') {
        const w = { text: '', status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), close: () => req.destroy() };
        res.on('data', (chunk: Buffer) => (w.text += chunk.toString('utf8')));
        e.watch = w;
        resolve(answer(''));
        return;
      }
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve(answer(text)));
    });
    req.on('error', (err) => (String(err).includes('socket hang up') || String(err).includes('aborted') ? undefined : reject(err)));
    req.end(step.body);
  });
}

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const YAML = 'application/yaml';
const json = (v: unknown) => JSON.stringify(v);

/** The requests for one name (or its control); `i` keeps namespaces and object names apart. */
function steps(n: string, i: number): Step[] {
  const ns = `ns-${i}`;
  const cms = `/api/v1/namespaces/${ns}/configmaps`;
  const b64 = 'eA==';
  const enc = encodeURIComponent(n);
  const cm = (name: string, extra: Record<string, unknown>) => json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, ...extra }, data: { [n]: n } });
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'dep', namespace: ns },
    spec: {
      selector: { matchLabels: { [n]: 'x' } },
      template: {
        metadata: { labels: { [n]: 'x' } },
        spec: { nodeSelector: { [n]: n }, containers: [{ name: 'c', image: n, env: [{ name: n, value: n }] }] },
      },
    },
  };
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets${i}.example.com` },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: `widgets${i}`, singular: `widget${i}`, kind: `Widget${i}`, listKind: `Widget${i}List` },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { [n]: { type: 'string', default: n }, zfree: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
                },
              },
            },
          },
        },
      ],
    },
  };
  const widgets = `/apis/example.com/v1/namespaces/${ns}/widgets${i}`;
  return [
    { method: 'POST', path: '/api/v1/namespaces', body: json({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }) },
    { method: 'GET', path: `${cms}?watch=true`, watch: 'open' },
    // Names: object names and namespaces are DNS-1123; keys and values of every map.
    { method: 'POST', path: '/api/v1/namespaces', body: json({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: n } }) },
    { method: 'POST', path: cms, body: cm(n, {}) },
    { method: 'POST', path: cms, body: cm('z-data', {}) },
    { method: 'POST', path: cms, body: cm('z-labels', { labels: { [n]: n } }) },
    { method: 'POST', path: cms, body: cm('z-annotations', { annotations: { [n]: n } }) },
    { method: 'POST', path: cms, body: cm('z-label-value', { labels: { key: n } }) },
    { method: 'POST', path: cms, body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'z-binary', namespace: ns }, binaryData: { [n]: b64 } }) },
    { method: 'POST', path: cms, body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'z-both', namespace: ns }, data: { [n]: n }, binaryData: { [n]: b64 } }) },
    { method: 'POST', path: cms, body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: z-yaml\n  namespace: ${ns}\ndata:\n  ${n}: ${n}\n  "${n}x": "${n}"\n`, contentType: YAML },
    { method: 'POST', path: `/api/v1/namespaces/${ns}/secrets`, body: json({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'z-s', namespace: ns }, type: n, data: { [n]: b64 }, stringData: { [`${n}2`]: n } }) },
    { method: 'POST', path: `/api/v1/namespaces/${ns}/secrets`, body: json({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'z-opaque', namespace: ns }, stringData: { [n]: n } }) },
    // Struct fields and enum values spelled like built-ins.
    { method: 'POST', path: '/apis/apps/v1/namespaces/' + ns + '/deployments?fieldValidation=Strict', body: json({ ...deployment, metadata: { name: 'strict', namespace: ns }, spec: { ...deployment.spec, [n]: 1 } }) },
    { method: 'POST', path: '/apis/apps/v1/namespaces/' + ns + '/deployments?fieldValidation=Warn', body: json({ ...deployment, spec: { ...deployment.spec, [n]: 1 } }) },
    { method: 'POST', path: `/api/v1/namespaces/${ns}/services`, body: json({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc', namespace: ns }, spec: { type: n, selector: { [n]: n }, ports: [{ name: 'p', port: 80, protocol: n }] } }) },
    { method: 'POST', path: `/api/v1/namespaces/${ns}/services`, body: json({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'svc2', namespace: ns }, spec: { selector: { [n]: 'x' }, ports: [{ port: 80 }] } }) },
    {
      method: 'POST',
      path: `/api/v1/namespaces/${ns}/pods`,
      body: json({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'pod', namespace: ns, labels: { [n]: 'x' } },
        spec: {
          restartPolicy: n,
          nodeSelector: { [n]: n },
          tolerations: [{ key: n, operator: n, effect: n }],
          containers: [{ name: 'c', image: 'nginx', imagePullPolicy: n, env: [{ name: n, value: n }], resources: { requests: { [n]: '1' } } }],
        },
      }),
    },
    { method: 'POST', path: `/api/v1/namespaces/${ns}/pods`, body: json({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'ok', namespace: ns, labels: { [n]: 'x' } }, spec: { nodeSelector: { [n]: n }, containers: [{ name: 'c', image: 'nginx', env: [{ name: n, value: n }] }] } }) },
    // Kinds, versions, groups and resources spelled like built-ins.
    { method: 'POST', path: cms, body: json({ apiVersion: 'v1', kind: n, metadata: { name: 'kind' } }) },
    { method: 'POST', path: cms, body: json({ apiVersion: `${n}/v1`, kind: 'ConfigMap', metadata: { name: 'group' } }) },
    { method: 'POST', path: cms, body: json({ apiVersion: n, kind: 'ConfigMap', metadata: { name: 'version' } }) },
    { method: 'GET', path: `/api/v1/${enc}` },
    { method: 'GET', path: `/api/v1/namespaces/${ns}/${enc}` },
    { method: 'GET', path: `/apis/${enc}/v1/things` },
    { method: 'GET', path: `/api/v1/namespaces/${ns}/configmaps/data/${enc}` },
    { method: 'GET', path: `${cms}/${enc}` },
    // Reads: objects, lists by selectors, tables, watch.
    { method: 'GET', path: `${cms}/z-data` },
    { method: 'GET', path: `${cms}/z-yaml`, accept: YAML },
    { method: 'GET', path: `${cms}?labelSelector=${enc}%3D${enc}` },
    { method: 'GET', path: `${cms}?labelSelector=${enc}` },
    { method: 'GET', path: `${cms}?labelSelector=!${enc}` },
    { method: 'GET', path: `${cms}?labelSelector=key%20in%20(${enc})` },
    { method: 'GET', path: `${cms}?fieldSelector=metadata.name%3D${enc}` },
    { method: 'GET', path: `${cms}?fieldSelector=${enc}%3Dx` },
    { method: 'GET', path: cms, accept: TABLE },
    { method: 'GET', path: `/api/v1/namespaces/${ns}/pods`, accept: TABLE },
    { method: 'GET', path: `/api/v1/namespaces/${ns}/services`, accept: TABLE },
    { method: 'GET', path: `/apis/apps/v1/namespaces/${ns}/deployments`, accept: TABLE },
    { method: 'GET', path: `/api/v1/namespaces/${ns}/secrets`, accept: TABLE },
    // Every patch type, adding, changing and removing the keys.
    { method: 'PATCH', path: `${cms}/z-data`, contentType: 'application/merge-patch+json', body: json({ data: { [n]: 'merged', [`${n}2`]: n }, metadata: { labels: { x: n } } }) },
    { method: 'PATCH', path: `${cms}/z-data`, contentType: 'application/merge-patch+json', body: json({ data: { [n]: null } }) },
    { method: 'PATCH', path: `${cms}/z-data`, contentType: 'application/json-patch+json', body: json([{ op: 'add', path: `/data/${n}`, value: n }, { op: 'test', path: `/data/${n}`, value: n }]) },
    { method: 'PATCH', path: `${cms}/z-data`, contentType: 'application/json-patch+json', body: json([{ op: 'replace', path: `/data/${n}`, value: 'replaced' }, { op: 'copy', from: `/data/${n}`, path: `/data/${n}3` }, { op: 'move', from: `/data/${n}3`, path: '/data/zz' }]) },
    { method: 'PATCH', path: `${cms}/z-data`, contentType: 'application/json-patch+json', body: json([{ op: 'remove', path: `/data/${n}` }, { op: 'remove', path: `/data/${n}` }]) },
    { method: 'PATCH', path: `${cms}/z-data`, contentType: 'application/json-patch+json', body: json([{ op: 'test', path: `/data/${n}`, value: 'absent' }]) },
    { method: 'PATCH', path: `${cms}/z-data`, contentType: 'application/json-patch+json', body: json([{ op: 'add', path: `/${n}`, value: 1 }]) },
    { method: 'PATCH', path: `${cms}/z-data`, contentType: 'application/strategic-merge-patch+json', body: json({ data: { [n]: 'strategic' }, metadata: { annotations: { [n]: n } } }) },
    { method: 'PATCH', path: `${cms}/z-data`, contentType: 'application/strategic-merge-patch+json', body: json({ data: { $patch: 'replace', [n]: n } }) },
    { method: 'PATCH', path: `${cms}/z-data`, contentType: 'application/strategic-merge-patch+json', body: json({ data: { $retainKeys: [n] } }) },
    {
      method: 'PATCH',
      path: `/apis/apps/v1/namespaces/${ns}/deployments/dep`,
      contentType: 'application/strategic-merge-patch+json',
      body: json({ spec: { template: { spec: { containers: [{ name: 'c', env: [{ name: n, value: 'smp' }, { name: `${n}2`, value: n }] }], [`$setElementOrder/containers`]: [{ name: 'c' }] } } } }),
    },
    { method: 'PATCH', path: `/apis/apps/v1/namespaces/${ns}/deployments/dep`, contentType: 'application/strategic-merge-patch+json', body: json({ spec: { template: { spec: { containers: [{ name: 'c', env: [{ name: n, $patch: 'delete' }] }] } } } }) },
    { method: 'PATCH', path: `/apis/apps/v1/namespaces/${ns}/deployments/dep`, contentType: 'application/strategic-merge-patch+json', body: json({ spec: { [n]: 1 } }) },
    // Server-side apply: the name as a field manager, as keys owned and taken over.
    { method: 'PATCH', path: `${cms}/z-applied?fieldManager=${enc}`, contentType: 'application/apply-patch+yaml', body: `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: z-applied\n  labels:\n    ${n}: x\ndata:\n  ${n}: ${n}\n  zz: z\n` },
    { method: 'PATCH', path: `${cms}/z-applied?fieldManager=z-other`, contentType: 'application/apply-patch+yaml', body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'z-applied' }, data: { [n]: 'other' } }) },
    { method: 'PATCH', path: `${cms}/z-applied?fieldManager=z-other&force=true`, contentType: 'application/apply-patch+yaml', body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'z-applied' }, data: { [n]: 'other' } }) },
    { method: 'PATCH', path: `${cms}/z-applied?fieldManager=${enc}`, contentType: 'application/apply-patch+yaml', body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'z-applied' }, data: { zz: 'z' } }) },
    { method: 'PATCH', path: `/apis/apps/v1/namespaces/${ns}/deployments/dep?fieldManager=${enc}`, contentType: 'application/apply-patch+yaml', body: json(deployment) },
    { method: 'PUT', path: `${cms}/z-applied`, body: json({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'z-applied', namespace: ns, managedFields: [{ manager: n, operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { [`f:${n}`]: {} } }] }, data: { [n]: n } }) },
    { method: 'GET', path: `${cms}/z-applied` },
    // Custom resources: a schema with the name as a property, free-form fields, pruning.
    { method: 'POST', path: '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', body: json(crd) },
    { method: 'POST', path: widgets, body: json({ apiVersion: 'example.com/v1', kind: `Widget${i}`, metadata: { name: 'w', namespace: ns }, spec: { zfree: { [n]: { [n]: n } }, [`${n}x`]: 1 } }) },
    { method: 'GET', path: `${widgets}/w` },
    { method: 'PATCH', path: `${widgets}/w`, contentType: 'application/merge-patch+json', body: json({ spec: { [n]: 'set', zfree: { [n]: null } } }) },
    { method: 'GET', path: widgets, accept: TABLE },
    // Deletes by name; then every event the watch saw.
    { method: 'DELETE', path: `${cms}/${enc}` },
    { method: 'DELETE', path: `${cms}/z-labels` },
    { method: 'GET', path: `${cms}?watch=true`, watch: 'close' },
  ];
}

describe('own keys: built-in property names through the HTTP API', function () {
  this.timeout(120_000);
  let named: Endpoint;
  let controls: Endpoint;
  const answers: Array<{ name: string; step: Step; got: Answer; want: Answer }> = [];

  before(async () => {
    [named, controls] = [await start(), await start()];
    for (const [i, n] of BUILTIN_NAMES.entries()) {
      const a = steps(n, i);
      const b = steps(control(n), i);
      for (let k = 0; k < a.length; k++) {
        const [got, want] = await Promise.all([send(named, a[k]!), send(controls, b[k]!)]);
        answers.push({ name: n, step: a[k]!, got, want: { ...want, body: restoreNames(want.body), warning: restoreNames(want.warning) } });
      }
    }
  });
  after(async () => {
    for (const e of [named, controls]) {
      await e.endpoint.close();
      await e.cluster.close();
    }
  });

  it('answers each request with a name as it answers the same request with an ordinary name, byte for byte', () => {
    assert.ok(answers.length > 1000);
    const differing = answers.filter((a) => a.got.status !== a.want.status || a.got.body !== a.want.body || a.got.warning !== a.want.warning || a.got.contentType !== a.want.contentType);
    const shown = differing.slice(0, 5).map((a) => `${a.name}: ${a.step.method} ${a.step.path}\n  got  ${a.got.status} ${a.got.warning} ${a.got.body.slice(0, 600)}\n  want ${a.want.status} ${a.want.warning} ${a.want.body.slice(0, 600)}`);
    assert.equal(differing.length, 0, `${differing.length} of ${answers.length} answers differ:\n${shown.join('\n')}`);
  });

  it('no answer is a 500', () => {
    const failed = answers.filter((a) => a.got.status >= 500 || a.want.status >= 500);
    assert.deepEqual(failed.map((a) => `${a.name}: ${a.step.method} ${a.step.path}: ${a.got.body.slice(0, 300)}`), []);
  });

  it('keeps every key of a ConfigMap as sent: the object read back has the same data', () => {
    for (const [i, n] of BUILTIN_NAMES.entries()) {
      const created = answers.find((a) => a.name === n && a.step.method === 'POST' && a.step.body?.includes('"name":"z-data"'))!;
      assert.equal(created.got.status, 201, `${n}: ${created.got.body}`);
      const data = (JSON.parse(created.got.body) as { data: Record<string, string> }).data;
      assert.equal(JSON.stringify(data), JSON.stringify({ [n]: n }), `${n} (#${i})`);
      assert.ok(Object.hasOwn(data, n));
    }
  });

  it('judges names by the Kubernetes rules only: kube-apiserver texts for a few', () => {
    const rfc1123 =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const proto = answers.find((a) => a.name === '__proto__' && a.step.method === 'POST' && a.step.body?.includes('"name":"__proto__","namespace"'))!;
    assert.equal(proto.got.status, 422);
    assert.equal((JSON.parse(proto.got.body) as { message: string }).message, `ConfigMap "__proto__" is invalid: metadata.name: Invalid value: "__proto__": ${rfc1123}`);
    const ctor = answers.find((a) => a.name === 'constructor' && a.step.method === 'POST' && a.step.body?.includes('"name":"constructor","namespace"'))!;
    assert.equal(ctor.got.status, 201, ctor.got.body);
    const label = answers.find((a) => a.name === '__proto__' && a.step.body?.includes('"name":"z-labels"'))!;
    assert.equal(
      (JSON.parse(label.got.body) as { message: string }).message,
      `ConfigMap "z-labels" is invalid: [metadata.labels: Invalid value: "__proto__": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), metadata.labels: Invalid value: "__proto__": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')]`,
    );
  });
});
