import assert from 'node:assert/strict';
import {
  convertFieldSelector,
  escapeValue,
  FieldSelector,
  fieldsForKind,
  parseFieldSelector,
  unescapeValue,
} from '../../../src/engine/api/fieldselector';
import type { KubeObject } from '../../../src/engine/api/types';

// Cases from k8s.io/apimachinery/pkg/fields/selector_test.go (release-1.35).
const parse = (s: string): FieldSelector => {
  const sel = parseFieldSelector(s);
  if (!sel.ok) throw new Error(`${s}: ${sel.error}`);
  return sel.value;
};
const parseError = (s: string): string => {
  const sel = parseFieldSelector(s);
  assert.ok(!sel.ok, `${s} should not parse`);
  return sel.error;
};

describe('field selectors', () => {
  it('escapes and unescapes (TestEscapeValue)', () => {
    const table: [string, string][] = [
      ['', ''],
      ['a', 'a'],
      ['=', '\\='],
      [',', '\\,'],
      ['\\', '\\\\'],
      ['\\=\\,\\', '\\\\\\=\\\\\\,\\\\'],
    ];
    for (const [raw, escaped] of table) {
      assert.equal(escapeValue(raw), escaped);
      assert.deepEqual(unescapeValue(escaped), { ok: true, value: raw });
    }
    for (const bad of ['\\', '\\\\\\', '\\a']) assert.ok(!unescapeValue(bad).ok, bad);
  });

  it('round-trips good selectors and rejects bad ones (TestSelectorParse)', () => {
    for (const s of ['x=a,y=b,z=c', '', 'x!=a,y=b', 'x=a||y\\=b', 'x=a\\=\\=b']) assert.equal(parse(s).toString(), s);
    for (const s of ['x=a||y=b', 'x==a==b', 'x=a,b', 'x in (a)', 'x in (a,b,c)', 'x']) parseError(s);
    assert.equal(parse('x=a,a=x').toString(), parse('a=x,x=a').toString());
  });

  it('reports upstream parse errors', () => {
    assert.equal(parseError('x'), "invalid selector: 'x'; can't understand 'x'");
    assert.equal(parseError('x=a,b'), "invalid selector: 'x=a,b'; can't understand 'b'");
    assert.equal(parseError('x=a||y=b'), 'invalid field selector: unescaped character in value: 61');
    assert.equal(parseError('x=a\\b'), 'invalid field selector: invalid escape sequence: \\b');
    assert.equal(parseError('x=a\\'), 'invalid field selector: invalid escape sequence: \\');
  });

  it('matches (TestSelectorMatches)', () => {
    const set = { foo: 'bar', baz: 'blah', complex: '=value\\,\\' };
    for (const s of ['', 'foo=bar', 'baz=blah', 'foo=bar,baz=blah', 'foo=bar,baz=blah,complex=\\=value\\\\\\,\\\\', 'notin!=in']) {
      assert.ok(parse(s).matches(set), s);
    }
    for (const s of ['foo=blah', 'baz=bar', 'foo=bar,foobar=bar,baz=blah']) assert.ok(!parse(s).matches(set), s);
    assert.ok(parse('x!=y,z!=w').matches({ x: 'z', z: 'a' }));
    assert.ok(!parse('x!=y,z!=w').matches({ x: 'z', z: 'w' }));
    assert.ok(parse('missing=').matches({}));
  });

  describe('per-kind field labels', () => {
    const convert = (group: string, kind: string, s: string): string => {
      const r = convertFieldSelector(group, kind, parse(s));
      return r.ok ? r.value.toString() : `error: ${r.error}`;
    };
    it('accepts each kind\'s fields and renames spec.host', () => {
      assert.equal(convert('', 'Pod', 'spec.nodeName=n1,status.phase!=Running'), 'spec.nodeName=n1,status.phase!=Running');
      assert.equal(convert('', 'Pod', 'spec.host=n1'), 'spec.nodeName=n1');
      assert.equal(convert('', 'Node', 'spec.unschedulable=true'), 'spec.unschedulable=true');
      assert.equal(convert('', 'Event', 'involvedObject.name=web,reason=Scheduled'), 'involvedObject.name=web,reason=Scheduled');
      assert.equal(convert('events.k8s.io', 'Event', 'regarding.name=web'), 'involvedObject.name=web');
      assert.equal(convert('', 'Secret', 'type=Opaque'), 'type=Opaque');
      assert.equal(convert('apps', 'Deployment', 'metadata.name=x'), 'metadata.name=x');
    });
    it('rejects unsupported fields with the kind\'s own message', () => {
      assert.equal(convert('', 'Pod', 'foo=bar'), 'error: field label not supported: foo');
      assert.equal(convert('', 'Node', 'metadata.namespace=x'), 'error: field label not supported: metadata.namespace');
      assert.equal(convert('apps', 'Deployment', 'spec.replicas=1'), 'error: "spec.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"');
      assert.equal(convert('batch', 'Job', 'status.active=1'), 'error: field label "status.active" not supported for batchv1.Job');
      assert.equal(convert('events.k8s.io', 'Event', 'involvedObject.name=x'), 'error: field label not supported: involvedObject.name');
    });
    it('exposes the field sets the registries match against', () => {
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'p', namespace: 'ns' },
        spec: { nodeName: 'n1', restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccountName: 'default' },
        status: { phase: 'Running', podIP: '10.0.0.1', podIPs: [{ ip: '10.0.0.1' }] },
      } as KubeObject;
      assert.deepEqual(fieldsForKind('', 'Pod', pod), {
        'metadata.name': 'p',
        'metadata.namespace': 'ns',
        'spec.nodeName': 'n1',
        'spec.restartPolicy': 'Always',
        'spec.schedulerName': 'default-scheduler',
        'spec.serviceAccountName': 'default',
        'spec.hostNetwork': 'false',
        'status.phase': 'Running',
        'status.podIP': '10.0.0.1',
        'status.nominatedNodeName': '',
      });
      const event = { apiVersion: 'v1', kind: 'Event', metadata: { name: 'e', namespace: 'ns' }, involvedObject: { kind: 'Pod', name: 'p' }, reportingComponent: 'kubelet' } as KubeObject;
      assert.equal(fieldsForKind('', 'Event', event)['source'], 'kubelet');
      const rs = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'r' }, status: { replicas: 3 } } as KubeObject;
      assert.equal(fieldsForKind('apps', 'ReplicaSet', rs)['status.replicas'], '3');
      const job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'j' }, status: {} } as KubeObject;
      assert.equal(fieldsForKind('batch', 'Job', job)['status.successful'], '0');
      assert.ok(parse('spec.nodeName=n1,status.phase!=Pending').matches(fieldsForKind('', 'Pod', pod)));
    });
  });
});
