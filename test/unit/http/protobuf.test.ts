import { strict as assert } from 'node:assert';
import { decodeProtobuf } from '../../../src/http/protobuf/decode';
import { serve, type Served } from './harness';

// A minimal encoder for the test's messages: field = [number, value], a nested message is an array.
type Value = string | number | boolean | Buffer | Field[];
type Field = [number, Value];

function varint(n: number | bigint): Buffer {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return Buffer.from(out);
}

function encode(fields: Field[]): Buffer {
  return Buffer.concat(
    fields.map(([n, v]) => {
      if (typeof v === 'number' || typeof v === 'boolean') return Buffer.concat([varint(n << 3), varint(typeof v === 'boolean' ? (v ? 1 : 0) : v)]);
      const bytes = Buffer.isBuffer(v) ? v : typeof v === 'string' ? Buffer.from(v) : encode(v);
      return Buffer.concat([varint((n << 3) | 2), varint(bytes.length), bytes]);
    }),
  );
}

const envelope = (apiVersion: string, kind: string, raw: Field[]): Buffer =>
  Buffer.concat([Buffer.from('k8s\0', 'binary'), encode([[1, [[1, apiVersion], [2, kind]]], [2, encode(raw)], [3, ''], [4, '']])]);

describe('http: protobuf request bodies (kubectl typed clients)', () => {
  it('decodes an object: maps, nested messages, and Go zero values left out unless the field is a pointer', () => {
    const deployment = envelope('apps/v1', 'Deployment', [
      [1, [[1, 'web'], [3, 'default'], [11, [[1, 'app'], [2, 'web']]], [8, []]]],
      [
        2,
        [
          [1, 0],
          [2, [[1, [[1, 'app'], [2, 'web']]]]],
          [3, [[1, [[11, [[1, 'app'], [2, 'web']]]]], [2, [[2, [[1, 'c'], [2, 'nginx'], [6, [[3, 80], [4, 'TCP']]]]]]]]],
          [5, 0],
          [7, false],
        ],
      ],
    ]);
    assert.deepEqual(decodeProtobuf(deployment), {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'default', creationTimestamp: null, labels: { app: 'web' } },
      spec: {
        replicas: 0,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }] }] } },
      },
    });
  });

  it('decodes times, quantities, int-or-strings and bytes', () => {
    const pod = envelope('v1', 'Pod', [
      [1, [[1, 'p'], [8, [[1, 1735689600]]]]],
      [2, [[2, [[1, 'c'], [8, [[1, [[1, 'cpu'], [2, [[1, '100m']]]]]]]]]]],
    ]);
    const decoded = decodeProtobuf(pod) as Record<string, Record<string, unknown>>;
    assert.equal(decoded.metadata!.creationTimestamp, '2025-01-01T00:00:00Z');
    assert.deepEqual(decoded.spec!.containers, [{ name: 'c', resources: { limits: { cpu: '100m' } } }]);
    const secret = decodeProtobuf(envelope('v1', 'Secret', [[1, [[1, 's']]], [2, [[1, 'k'], [2, Buffer.from('s3cr3t')]]]])) as Record<string, unknown>;
    assert.deepEqual(secret.data, { k: Buffer.from('s3cr3t').toString('base64') });
    const pdb = decodeProtobuf(envelope('policy/v1', 'PodDisruptionBudget', [[2, [[1, [[1, 1], [3, '50%']]]]]])) as Record<string, Record<string, unknown>>;
    assert.equal(pdb.spec!.minAvailable, '50%');
  });

  it('names fields by their JSON tags where the protobuf name differs (uID, aPIGroup, Webhooks)', () => {
    const tr = decodeProtobuf(envelope('authentication.k8s.io/v1', 'TokenRequest', [[2, [[3, [[1, 'Pod'], [2, 'v1'], [3, 'p'], [4, 'u-1']]]]]])) as Record<string, Record<string, unknown>>;
    assert.deepEqual(tr.spec!.boundObjectRef, { kind: 'Pod', apiVersion: 'v1', name: 'p', uid: 'u-1' });
    const ic = decodeProtobuf(envelope('networking.k8s.io/v1', 'IngressClass', [[2, [[1, 'example.com/ingress'], [2, [[1, 'example.com'], [2, 'Params'], [3, 'x']]]]]])) as Record<string, Record<string, unknown>>;
    assert.deepEqual(ic.spec!.parameters, { apiGroup: 'example.com', kind: 'Params', name: 'x' });
    const vwc = decodeProtobuf(envelope('admissionregistration.k8s.io/v1', 'ValidatingWebhookConfiguration', [[1, [[1, 'v']]], [2, [[1, 'w.example.com']]]])) as Record<string, unknown>;
    assert.deepEqual(vwc.webhooks, [{ name: 'w.example.com' }]);
  });

  it('refuses what is not a protobuf object', () => {
    assert.equal(decodeProtobuf(Buffer.from('{"kind":"Pod"}')), 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
    assert.equal(decodeProtobuf(envelope('v1', 'Nonsense', [])), 'no kind "Nonsense" is registered for version "v1" in scheme "pkg/runtime/scheme.go:110"');
  });

  describe('over HTTP', () => {
    let s: Served;
    before(async () => (s = await serve()));
    after(() => s.close());

    it('creates from a protobuf body and answers in JSON', async () => {
      const body = envelope('v1', 'ConfigMap', [[1, [[1, 'from-proto']]], [2, [[1, 'mode'], [2, 'demo']]]]);
      const res = await s.send('POST', '/api/v1/namespaces/default/configmaps', { body, headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf', Accept: 'application/vnd.kubernetes.protobuf,application/json' } });
      assert.equal(res.status, 201);
      assert.equal(res.headers['content-type'], 'application/json');
      assert.deepEqual(res.json().data, { mode: 'demo' });
      const bad = await s.send('POST', '/api/v1/namespaces/default/configmaps', { body: Buffer.from('k8s\0\x0a\xff'), headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' } });
      assert.equal(bad.status, 400);
    });
  });
});
