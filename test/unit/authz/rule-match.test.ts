// Upstream tables: plugin/pkg/auth/authorizer/rbac/rbac_test.go TestRuleMatches and TestAuthorizer.
import { strict as assert } from 'node:assert';
import { createRbacAuthorizer } from '../../../src/engine/apiserver/authz/rbac';
import { ruleAllows, type RuleRequest } from '../../../src/engine/apiserver/authz/rbac/rule-match';
import type { PolicyRule } from '../../../src/engine/apiserver/authz/rbac/types';
import { MemoryReader, attrs, clusterRole, clusterRoleBinding, roleBinding, user } from './memory-reader';

const res = (verb: string, group: string, resource: string, subresource = ''): RuleRequest => ({
  isResourceRequest: true,
  verb,
  apiGroup: group,
  resource,
  subresource,
  name: '',
  path: '',
});
const url = (verb: string, path: string): RuleRequest => ({ isResourceRequest: false, verb, apiGroup: '', resource: '', subresource: '', name: '', path });

describe('rbac RuleAllows (rbac_test.go TestRuleMatches)', () => {
  const cases: { name: string; rule: PolicyRule; expect: [RuleRequest, boolean][] }[] = [
    {
      name: 'star verb, exact match other',
      rule: { verbs: ['*'], apiGroups: ['group1'], resources: ['resource1'] },
      expect: [
        [res('verb1', 'group1', 'resource1'), true],
        [res('verb1', 'group2', 'resource1'), false],
        [res('verb1', 'group1', 'resource2'), false],
        [res('verb2', 'group1', 'resource1'), true],
        [res('verb2', 'group2', 'resource2'), false],
      ],
    },
    {
      name: 'star group, exact match other',
      rule: { verbs: ['verb1'], apiGroups: ['*'], resources: ['resource1'] },
      expect: [
        [res('verb1', 'group1', 'resource1'), true],
        [res('verb1', 'group2', 'resource1'), true],
        [res('verb1', 'group1', 'resource2'), false],
        [res('verb2', 'group1', 'resource1'), false],
      ],
    },
    {
      name: 'star resource, exact match other',
      rule: { verbs: ['verb1'], apiGroups: ['group1'], resources: ['*'] },
      expect: [
        [res('verb1', 'group1', 'resource1'), true],
        [res('verb1', 'group2', 'resource1'), false],
        [res('verb1', 'group1', 'resource2'), true],
        [res('verb2', 'group1', 'resource1'), false],
      ],
    },
    {
      name: 'tuple expansion',
      rule: { verbs: ['verb1', 'verb2'], apiGroups: ['group1', 'group2'], resources: ['resource1', 'resource2'] },
      expect: [
        [res('verb1', 'group1', 'resource1'), true],
        [res('verb1', 'group2', 'resource2'), true],
        [res('verb2', 'group1', 'resource2'), true],
        [res('verb2', 'group2', 'resource1'), true],
        [res('verb3', 'group1', 'resource1'), false],
      ],
    },
    {
      name: 'subresource expansion',
      rule: { verbs: ['*'], apiGroups: ['*'], resources: ['resource1/subresource1'] },
      expect: [
        [res('verb1', 'group1', 'resource1', 'subresource1'), true],
        [res('verb1', 'group2', 'resource1', 'subresource2'), false],
        [res('verb1', 'group1', 'resource2', 'subresource1'), false],
        [res('verb2', 'group1', 'resource1', 'subresource1'), true],
        [res('verb2', 'group1', 'resource1'), false],
      ],
    },
    {
      name: 'star nonresource, exact match other',
      rule: { verbs: ['verb1'], nonResourceURLs: ['*'] },
      expect: [
        [url('verb1', '/foo'), true],
        [url('verb1', '/foo/bar'), true],
        [url('verb1', '/foo/baz/one'), true],
        [url('verb2', '/foo'), false],
        [url('verb2', '/foo/bar/one'), false],
      ],
    },
    {
      name: 'star nonresource subpath',
      rule: { verbs: ['verb1'], nonResourceURLs: ['/foo/*'] },
      expect: [
        [url('verb1', '/foo'), false],
        [url('verb1', '/foo/bar'), true],
        [url('verb1', '/foo/baz'), true],
        [url('verb1', '/foo/bar/one'), true],
        [url('verb1', '/notfoo'), false],
        [url('verb1', '/notfoo/bar'), false],
      ],
    },
    {
      name: 'star verb, exact nonresource',
      rule: { verbs: ['*'], nonResourceURLs: ['/foo', '/foo/bar/one'] },
      expect: [
        [url('verb1', '/foo'), true],
        [url('verb1', '/foo/bar'), false],
        [url('verb1', '/foo/bar/one'), true],
        [url('verb2', '/foo'), true],
        [url('verb2', '/foo/baz/one'), false],
      ],
    },
    {
      name: 'resourceNames restrict, empty means all',
      rule: { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] },
      expect: [
        [{ ...res('get', '', 'configmaps'), name: 'a' }, true],
        [{ ...res('get', '', 'configmaps'), name: 'b' }, false],
        [res('get', '', 'configmaps'), false],
      ],
    },
    {
      name: 'a resource rule never allows a non-resource request and vice versa',
      rule: { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
      expect: [
        [url('get', '/healthz'), false],
        [res('get', 'apps', 'deployments', 'scale'), true],
      ],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      for (const [req, want] of c.expect) assert.equal(ruleAllows(req, c.rule), want, JSON.stringify(req));
    });
  }
});

describe('rbac authorizer (rbac_test.go TestAuthorizer)', () => {
  const decide = (reader: MemoryReader, a: ReturnType<typeof attrs>): string => createRbacAuthorizer(reader).authorize(a).decision;

  it('a ClusterRole bound in a namespace grants only there, to its users and groups', () => {
    const reader = new MemoryReader([
      clusterRole('admin', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], nonResourceURLs: ['*'] }]),
      roleBinding('ns1', 'b', { kind: 'ClusterRole', name: 'admin' }, 'User:admin', 'Group:admins'),
    ]);
    for (const [u, verb, resource] of [
      [user('admin'), 'get', 'Pods'],
      [user('admin'), 'watch', 'Pods'],
      [user('admin', 'group1'), 'watch', 'Foobar'],
      [user('joe', 'admins'), 'watch', 'Foobar'],
      [user('joe', 'group1', 'admins'), 'watch', 'Foobar'],
    ] as const) {
      assert.equal(decide(reader, attrs(u, { verb, resource, namespace: 'ns1' })), 'Allow');
    }
    for (const [u, verb, resource, namespace] of [
      [user('admin'), 'GET', 'Pods', 'ns2'],
      [user('admin'), 'GET', 'Nodes', ''],
      [user('admin', 'admins'), 'GET', 'Pods', 'ns2'],
      [user('admin', 'admins'), 'GET', 'Nodes', ''],
    ] as const) {
      assert.equal(decide(reader, attrs(u, { verb, resource, namespace })), 'NoOpinion');
    }
  });

  it('non-resource URLs, exact and prefixed', () => {
    const reader = new MemoryReader([
      clusterRole('non-resource-url-getter', [{ verbs: ['get'], nonResourceURLs: ['/apis'] }]),
      clusterRole('non-resource-url', [{ verbs: ['*'], nonResourceURLs: ['/apis'] }]),
      clusterRole('non-resource-url-prefix', [{ verbs: ['get'], nonResourceURLs: ['/apis/*'] }]),
      clusterRoleBinding('getter', 'non-resource-url-getter', 'User:foo', 'Group:bar'),
      clusterRoleBinding('any', 'non-resource-url', 'User:admin', 'Group:admin'),
      clusterRoleBinding('prefix', 'non-resource-url-prefix', 'User:prefixed', 'Group:prefixed'),
    ]);
    const pass: [ReturnType<typeof user>, string, string][] = [
      [user('foo'), 'get', '/apis'],
      [user('', 'bar'), 'get', '/apis'],
      [user('admin'), 'get', '/apis'],
      [user('', 'admin'), 'watch', '/apis'],
      [user('prefixed'), 'get', '/apis/v1'],
      [user('', 'prefixed'), 'get', '/apis/v1/foorbar'],
    ];
    const fail: [ReturnType<typeof user>, string, string][] = [
      [user('foo'), 'watch', '/apis'],
      [user('', 'bar'), 'watch', '/apis'],
      [user('foo'), 'get', '/api/v1'],
      [user('', 'admin'), 'get', '/api/v1'],
      [user('prefixed'), 'get', '/api/v1'],
    ];
    for (const [u, verb, path] of pass) assert.equal(decide(reader, attrs(u, { verb, path })), 'Allow', `${u.username} ${verb} ${path}`);
    for (const [u, verb, path] of fail) assert.equal(decide(reader, attrs(u, { verb, path })), 'NoOpinion', `${u.username} ${verb} ${path}`);
  });

  it('subresources: "pods" does not grant pods/status; "*/scale" grants any scale', () => {
    const reader = new MemoryReader([
      clusterRole('pods', [{ verbs: ['*'], apiGroups: ['*'], resources: ['pods'] }]),
      clusterRole('subs', [
        { verbs: ['*'], apiGroups: ['*'], resources: ['pods/status'] },
        { verbs: ['*'], apiGroups: ['*'], resources: ['*/scale'] },
      ]),
      roleBinding('ns1', 'a', { kind: 'ClusterRole', name: 'pods' }, 'User:a'),
      roleBinding('ns1', 'b', { kind: 'ClusterRole', name: 'subs' }, 'User:b'),
    ]);
    assert.equal(decide(reader, attrs(user('a'), { resource: 'pods', namespace: 'ns1' })), 'Allow');
    assert.equal(decide(reader, attrs(user('a'), { resource: 'pods', subresource: 'status', namespace: 'ns1' })), 'NoOpinion');
    for (const [resource, subresource] of [['pods', 'status'], ['pods', 'scale'], ['deployments', 'scale'], ['anything', 'scale']]) {
      assert.equal(decide(reader, attrs(user('b'), { resource, subresource, namespace: 'ns1' })), 'Allow', `${resource}/${subresource}`);
    }
    assert.equal(decide(reader, attrs(user('b'), { resource: 'pods', namespace: 'ns1' })), 'NoOpinion');
  });
});
