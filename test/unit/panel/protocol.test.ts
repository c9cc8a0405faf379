import { strict as assert } from 'node:assert';
import { parseWebviewMessage } from '../../../src/protocol/panel';

const good = { type: 'getRevision', requestId: 7, revision: 42, group: 'apps', resource: 'deployments', namespace: 'default', name: 'web' };

describe('panel protocol: messages from the webview', () => {
  it('accepts the well-formed messages, as exactly what they say', () => {
    assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { ok: true, message: { type: 'ready' } });
    assert.deepEqual(parseWebviewMessage({ type: 'scrubbed' }), { ok: true, message: { type: 'scrubbed' } });
    assert.deepEqual(parseWebviewMessage(good), { ok: true, message: good });
    const clusterScoped = { type: 'getRevision', requestId: 0, revision: 1, group: '', resource: 'nodes', name: 'node-1' };
    assert.deepEqual(parseWebviewMessage(clusterScoped), { ok: true, message: clusterScoped });
    // RBAC names are path segments: colons are fine.
    assert.equal(parseWebviewMessage({ ...good, group: 'rbac.authorization.k8s.io', resource: 'clusterroles', namespace: undefined, name: 'system:kube-scheduler' }).ok, true);
  });

  const hostile: [string, unknown, string][] = [
    ['undefined', undefined, 'not a plain object'],
    ['null', null, 'not a plain object'],
    ['a string', 'ready', 'not a plain object'],
    ['a number', 42, 'not a plain object'],
    ['an array', [{ type: 'ready' }], 'not a plain object'],
    ['a Date', new Date(0), 'not a plain object'],
    ['a class instance', new (class Ready { type = 'ready'; })(), 'not a plain object'],
    ['no type', {}, 'unknown message type undefined'],
    ['an unknown type', { type: 'exec', command: 'rm -rf /' }, 'unknown message type "exec"'],
    ['a type of the wrong kind', { type: ['ready'] }, 'unknown message type object'],
    ['an extra field on ready', { type: 'ready', extra: 1 }, 'unexpected fields'],
    ['an extra field on scrubbed', { type: 'scrubbed', revision: 5 }, 'unexpected fields'],
    ['an own __proto__ key', JSON.parse('{"type":"ready","__proto__":{"admin":true}}'), 'unexpected fields'],
    ['an extra field on getRevision', { type: 'getRevision', requestId: 1, revision: 2, group: '', resource: 'nodes', name: 'n', user: 'admin' }, 'unexpected field "user"'],
    ['too many fields', { ...good, user: 'admin' }, 'unexpected fields'],
    ['a string requestId', { ...good, requestId: '7' }, 'requestId: not a non-negative integer'],
    ['a negative requestId', { ...good, requestId: -1 }, 'requestId: not a non-negative integer'],
    ['a fractional revision', { ...good, revision: 1.5 }, 'revision: not a positive integer'],
    ['revision 0', { ...good, revision: 0 }, 'revision: not a positive integer'],
    ['revision NaN', { ...good, revision: NaN }, 'revision: not a positive integer'],
    ['revision Infinity', { ...good, revision: Infinity }, 'revision: not a positive integer'],
    ['an unsafe revision', { ...good, revision: 2 ** 60 }, 'revision: not a positive integer'],
    ['a missing name', { ...good, name: undefined }, 'name: not an object name'],
    ['an empty name', { ...good, name: '' }, 'name: not an object name'],
    ['a name with a slash', { ...good, name: '../../secrets/kube-system/token' }, 'name: not an object name'],
    ['a name of ..', { ...good, name: '..' }, 'name: not an object name'],
    ['a name with a control character', { ...good, name: 'web\u0000' }, 'name: not an object name'],
    ['a 10,000-character name', { ...good, name: 'a'.repeat(10_000) }, 'name: not an object name'],
    ['an uppercase resource', { ...good, resource: 'Deployments' }, 'resource: not a resource name'],
    ['a resource with a selector', { ...good, resource: 'pods?fieldSelector=x' }, 'resource: not a resource name'],
    ['a group with a slash', { ...good, group: 'apps/v1' }, 'group: not an API group name'],
    ['a group object', { ...good, group: { toString: () => 'apps' } }, 'group: not an API group name'],
    ['a namespace with a slash', { ...good, namespace: 'default/../kube-system' }, 'namespace: not a namespace name'],
    ['a null namespace', { ...good, namespace: null }, 'namespace: not a namespace name'],
  ];
  for (const [what, raw, error] of hostile) {
    it(`rejects ${what}`, () => {
      assert.deepEqual(parseWebviewMessage(raw), { ok: false, error });
    });
  }

  it('rejects objects that throw when read, without throwing', () => {
    const trap = new Proxy({}, { ownKeys: () => { throw new Error('boom'); }, get: () => { throw new Error('boom'); } });
    assert.deepEqual(parseWebviewMessage(trap), { ok: false, error: 'unreadable message' });
    const getter = Object.defineProperty({}, 'type', { enumerable: true, get: () => { throw new Error('boom'); } });
    assert.deepEqual(parseWebviewMessage(getter), { ok: false, error: 'unreadable message' });
  });

  it('keeps only the known fields of an accepted message', () => {
    const parsed = parseWebviewMessage({ ...good });
    assert.ok(parsed.ok);
    assert.deepEqual(Object.keys(parsed.message).sort(), ['group', 'name', 'namespace', 'requestId', 'resource', 'revision', 'type']);
  });
});

describe('panel protocol: the details view request', () => {
  const details = { type: 'getDetails', requestId: 3, kind: 'Pod', namespace: 'default', name: 'web-7d4b9c-x2x8k', revision: 120 };

  it('accepts a namespaced object at a revision, and a node now', () => {
    assert.deepEqual(parseWebviewMessage(details), { ok: true, message: details });
    assert.deepEqual(parseWebviewMessage({ type: 'getDetails', requestId: 0, kind: 'Node', name: 'kubesim-worker' }), { ok: true, message: { type: 'getDetails', requestId: 0, kind: 'Node', name: 'kubesim-worker' } });
  });

  const bad: [string, unknown, string][] = [
    ['a kind the panel does not show', { ...details, kind: 'Secret' }, 'kind: not a kind the panel shows'],
    ['a kind of the wrong type', { ...details, kind: 7 }, 'kind: not a kind the panel shows'],
    ['a pod without a namespace', { ...details, namespace: undefined }, 'namespace: required for a namespaced kind'],
    ['a node with a namespace', { type: 'getDetails', requestId: 0, kind: 'Node', namespace: 'default', name: 'n' }, 'namespace: a Node has none'],
    ['a name that is not a DNS subdomain', { ...details, name: 'Web_1' }, 'name: not an object name'],
    ['a revision of 0', { ...details, revision: 0 }, 'revision: not a positive integer'],
    ['a string revision', { ...details, revision: '120' }, 'revision: not a positive integer'],
    ['an extra field', { ...details, logs: true }, 'unexpected fields'],
    ['a namespace with a slash', { ...details, namespace: 'a/b' }, 'namespace: not a namespace name'],
  ];
  for (const [what, raw, error] of bad) it(`rejects ${what}`, () => assert.deepEqual(parseWebviewMessage(raw), { ok: false, error }));

  it('rejects random messages without throwing (fuzz)', () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const values = [undefined, null, 0, -1, 1.5, 2 ** 60, NaN, '', 'Pod', 'Node', 'default', 'a'.repeat(300), '../x', {}, [], true];
    for (let i = 0; i < 2000; i++) {
      const m: Record<string, unknown> = { type: 'getDetails' };
      for (const k of ['requestId', 'kind', 'namespace', 'name', 'revision', 'extra']) if (rnd() < 0.8) m[k] = values[Math.floor(rnd() * values.length)];
      const parsed = parseWebviewMessage(m);
      if (parsed.ok) {
        const msg = parsed.message as { kind: string; name: string };
        assert.ok(['Pod', 'Node'].includes(msg.kind) && /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(msg.name), JSON.stringify(m));
      }
    }
  });
});
