import { strict as assert } from 'node:assert';
import type { KubeObject } from '../../../src/engine/api/types';
import { nodeUser, serviceAccountUser } from '../../../src/engine/apiserver/authn/user';
import { forbiddenStatusError } from '../../../src/engine/apiserver/authz/forbidden';
import { createNodeAuthorizer } from '../../../src/engine/apiserver/authz/node';
import { bootstrapPolicyObjects, createRbacAuthorizer } from '../../../src/engine/apiserver/authz/rbac';
import type { Attributes } from '../../../src/engine/apiserver/authz/types';
import { unionAuthorizer } from '../../../src/engine/apiserver/authz/union';
import { MemoryReader, attrs, user } from './memory-reader';

function pod(name: string, nodeName: string, spec: Record<string, unknown>, extra: Partial<KubeObject> = {}): KubeObject {
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { ...(nodeName ? { nodeName } : {}), containers: [], ...spec }, ...extra };
}

const objects: KubeObject[] = [
  pod('p1', 'n1', {
    serviceAccountName: 'sa1',
    imagePullSecrets: [{ name: 'pull' }],
    containers: [{ name: 'c', env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'c1', key: 'k' } } }], envFrom: [{ secretRef: { name: 'env-secret' } }] }],
    initContainers: [{ name: 'i', env: [{ name: 'B', valueFrom: { secretKeyRef: { name: 'init-secret', key: 'k' } } }] }],
    volumes: [
      { name: 'v1', secret: { secretName: 's1' } },
      { name: 'v2', persistentVolumeClaim: { claimName: 'claim1' } },
      { name: 'scratch', ephemeral: { volumeClaimTemplate: { spec: {} } } },
      { name: 'proj', projected: { sources: [{ configMap: { name: 'proj-cm' } }, { secret: { name: 'proj-secret' } }] } },
      { name: 'csi', csi: { driver: 'd', nodePublishSecretRef: { name: 'csi-secret' } } },
    ],
  }, { status: { resourceClaimStatuses: [{ name: 'gpu', resourceClaimName: 'p1-gpu-abc' }] } }),
  pod('p2', 'n2', { volumes: [{ name: 'v', secret: { secretName: 's2' } }] }),
  pod('unscheduled', '', { volumes: [{ name: 'v', secret: { secretName: 's3' } }] }),
  { ...pod('static-web-n1', 'n1', { volumes: [{ name: 'v', secret: { secretName: 's-mirror' } }] }), metadata: { name: 'static-web-n1', namespace: 'default', annotations: { 'kubernetes.io/config.mirror': 'x' } } },
  { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv1' }, spec: { claimRef: { namespace: 'default', name: 'claim1' } } },
  { apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv2' }, spec: { claimRef: { namespace: 'default', name: 'other' } } },
  { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'va1' }, spec: { nodeName: 'n1' } },
  { apiVersion: 'storage.k8s.io/v1', kind: 'VolumeAttachment', metadata: { name: 'va2' }, spec: { nodeName: 'n2' } },
];

const n1 = nodeUser('n1');

describe('Node authorizer', () => {
  const reader = new MemoryReader(objects);
  const node = createNodeAuthorizer(reader);
  const decide = (a: Partial<Omit<Attributes, 'user'>>, u = n1) => node.authorize(attrs(u, { namespace: 'default', ...a }));
  const allowed = (a: Partial<Omit<Attributes, 'user'>>) => assert.deepEqual(decide(a), { decision: 'Allow', reason: '' }, JSON.stringify(a));
  const refused = (a: Partial<Omit<Attributes, 'user'>>, reason: string) => assert.deepEqual(decide(a), { decision: 'NoOpinion', reason }, JSON.stringify(a));
  const unrelated = "no relationship found between node 'n1' and this object";

  it('has no opinion on users that are not nodes, and refuses nameless nodes', () => {
    assert.deepEqual(node.authorize(attrs(user('system:node:n1'), { resource: 'secrets', namespace: 'default', name: 's1' })), { decision: 'NoOpinion', reason: '' });
    assert.deepEqual(node.authorize(attrs(user('system:node:', 'system:nodes'), { resource: 'pods' })), {
      decision: 'NoOpinion',
      reason: 'unknown node for user "system:node:"',
    });
    assert.equal(decide({ resource: 'secrets', name: 's1' }, serviceAccountUser('default', 'x')).decision, 'NoOpinion');
  });

  it('reads the secrets and configmaps its pods refer to, and no others', () => {
    for (const name of ['s1', 'pull', 'env-secret', 'init-secret', 'proj-secret', 'csi-secret']) allowed({ resource: 'secrets', name });
    for (const verb of ['list', 'watch']) allowed({ verb, resource: 'secrets', name: 's1' });
    for (const name of ['c1', 'proj-cm']) allowed({ resource: 'configmaps', name });
    refused({ resource: 'secrets', name: 's2' }, unrelated);
    refused({ resource: 'secrets', name: 's3' }, unrelated);
    refused({ resource: 'secrets', name: 's-mirror' }, unrelated);
    refused({ resource: 'secrets', name: 's1', namespace: 'other' }, unrelated);
    refused({ verb: 'list', resource: 'secrets' }, 'No Object name found');
    refused({ verb: 'update', resource: 'secrets', name: 's1' }, 'can only read resources of this type');
    refused({ resource: 'secrets', subresource: 'x', name: 's1' }, 'cannot read subresource');
    refused({ resource: 'configmaps', name: 'c1', namespace: '' }, 'can only read namespaced object of this type');
  });

  it('gets the claims, volumes and attachments of its pods', () => {
    allowed({ resource: 'persistentvolumeclaims', name: 'claim1' });
    allowed({ resource: 'persistentvolumeclaims', name: 'p1-scratch' });
    allowed({ verb: 'patch', resource: 'persistentvolumeclaims', subresource: 'status', name: 'claim1' });
    refused({ verb: 'get', resource: 'persistentvolumeclaims', subresource: 'status', name: 'claim1' }, 'can only get/update/patch this type');
    refused({ verb: 'list', resource: 'persistentvolumeclaims' }, 'can only get individual resources of this type');
    allowed({ resource: 'persistentvolumes', name: 'pv1', namespace: '' });
    refused({ resource: 'persistentvolumes', name: 'pv2', namespace: '' }, unrelated);
    allowed({ apiGroup: 'storage.k8s.io', resource: 'volumeattachments', name: 'va1', namespace: '' });
    refused({ apiGroup: 'storage.k8s.io', resource: 'volumeattachments', name: 'va2', namespace: '' }, unrelated);
    allowed({ apiGroup: 'resource.k8s.io', resource: 'resourceclaims', name: 'p1-gpu-abc' });
    refused({ apiGroup: 'resource.k8s.io', resource: 'resourceclaims', subresource: 'status', name: 'p1-gpu-abc' }, 'cannot get subresource');
  });

  it('creates tokens only for service accounts of its pods', () => {
    allowed({ verb: 'create', resource: 'serviceaccounts', subresource: 'token', name: 'sa1' });
    refused({ verb: 'create', resource: 'serviceaccounts', subresource: 'token', name: 'default' }, unrelated);
    refused({ verb: 'get', resource: 'serviceaccounts', name: 'sa1' }, 'can only create tokens for individual service accounts');
    refused({ verb: 'create', resource: 'serviceaccounts', name: 'sa1' }, 'can only create token subresource of serviceaccount');
  });

  it('lists and watches only its own pods, and writes pod status and mirror pods', () => {
    for (const verb of ['list', 'watch']) {
      allowed({ verb, resource: 'pods', namespace: '', fieldSelector: 'spec.nodeName=n1' });
      allowed({ verb, resource: 'pods', namespace: '', fieldSelector: 'metadata.namespace!=x,spec.nodeName==n1' });
      refused({ verb, resource: 'pods', namespace: '' }, 'can only list/watch pods with spec.nodeName field selector');
      refused({ verb, resource: 'pods', namespace: '', fieldSelector: 'spec.nodeName=n2' }, 'can only list/watch pods with spec.nodeName field selector');
      refused({ verb, resource: 'pods', namespace: '', fieldSelector: 'spec.nodeName!=n1' }, 'can only list/watch pods with spec.nodeName field selector');
    }
    allowed({ resource: 'pods', name: 'p1' });
    allowed({ verb: 'watch', resource: 'pods', name: 'p1' });
    refused({ resource: 'pods', name: 'p2' }, unrelated);
    allowed({ verb: 'update', resource: 'pods', subresource: 'status', name: 'p2' });
    allowed({ verb: 'patch', resource: 'pods', subresource: 'status', name: 'p1' });
    allowed({ verb: 'create', resource: 'pods', name: 'static-web-n1' });
    allowed({ verb: 'delete', resource: 'pods', name: 'static-web-n1' });
    allowed({ verb: 'create', resource: 'pods', subresource: 'eviction', name: 'p1' });
    refused({ verb: 'update', resource: 'pods', name: 'p1' }, '');
    refused({ verb: 'get', resource: 'pods', subresource: 'log', name: 'p1' }, '');
  });

  it('reads only its own Node and writes Nodes and their status', () => {
    allowed({ resource: 'nodes', name: 'n1', namespace: '' });
    allowed({ verb: 'watch', resource: 'nodes', name: 'n1', namespace: '' });
    refused({ resource: 'nodes', name: 'n2', namespace: '' }, "node 'n1' cannot read 'n2', only its own Node object");
    refused({ verb: 'list', resource: 'nodes', namespace: '' }, "node 'n1' cannot read all nodes, only its own Node object");
    for (const verb of ['create', 'update', 'patch']) allowed({ verb, resource: 'nodes', name: 'n1', namespace: '' });
    allowed({ verb: 'patch', resource: 'nodes', subresource: 'status', name: 'n1', namespace: '' });
    refused({ verb: 'delete', resource: 'nodes', name: 'n1', namespace: '' }, '');
    refused({ verb: 'get', resource: 'nodes', subresource: 'proxy', name: 'n1', namespace: '' }, '');
  });

  it('uses its own Lease in kube-node-lease', () => {
    const lease = { apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease' };
    for (const verb of ['get', 'update', 'patch', 'delete']) allowed({ ...lease, verb, name: 'n1' });
    allowed({ ...lease, verb: 'create', name: '' });
    refused({ ...lease, name: 'n2' }, 'can only access node lease with the same name as the requesting node');
    refused({ ...lease, namespace: 'kube-system', name: 'n1' }, 'can only access leases in the "kube-node-lease" system namespace');
    refused({ ...lease, verb: 'list' }, 'can only get, create, update, patch, or delete a node lease');
  });

  it('applies the system:node rules to everything else', () => {
    allowed({ verb: 'create', resource: 'events' });
    allowed({ verb: 'patch', resource: 'events', name: 'e' });
    allowed({ verb: 'watch', resource: 'services', namespace: '' });
    allowed({ verb: 'create', apiGroup: 'authentication.k8s.io', resource: 'tokenreviews', namespace: '' });
    refused({ verb: 'create', apiGroup: 'events.k8s.io', resource: 'events' }, '');
    refused({ verb: 'delete', apiGroup: 'apps', resource: 'deployments', name: 'd' }, '');
    refused({ path: '/healthz', namespace: '' }, '');
  });

  it('follows pods as they are bound', () => {
    const r = new MemoryReader(objects);
    const authz = createNodeAuthorizer(r);
    const a = attrs(n1, { resource: 'secrets', namespace: 'default', name: 's3' });
    assert.equal(authz.authorize(a).decision, 'NoOpinion');
    r.put(pod('unscheduled', 'n1', { volumes: [{ name: 'v', secret: { secretName: 's3' } }] }));
    assert.equal(authz.authorize(a).decision, 'Allow');
    r.remove('Pod', 'default', 'unscheduled');
    assert.equal(authz.authorize(a).decision, 'NoOpinion');
  });

  it('cannot list a kubelet\'s rules', () => {
    assert.deepEqual(node.rulesFor(n1), { resourceRules: [], nonResourceRules: [], incomplete: true, errors: ['node authorizer does not support user rule resolution'] });
    assert.deepEqual(node.rulesFor(user('alice')), { resourceRules: [], nonResourceRules: [], incomplete: false, errors: [] });
  });

  it('in the Node,RBAC chain, ends a kubelet\'s Forbidden message with its reason', async () => {
    const r = new MemoryReader([...objects, ...bootstrapPolicyObjects()]);
    const chain = unionAuthorizer([createNodeAuthorizer(r), createRbacAuthorizer(r)]);
    const a = attrs(n1, { resource: 'secrets', namespace: 'default', name: 's2' });
    const d = await chain.authorize(a);
    assert.equal(
      forbiddenStatusError(a, d.reason).message,
      'secrets "s2" is forbidden: User "system:node:n1" cannot get resource "secrets" in API group "" in the namespace "default": no relationship found between node \'n1\' and this object',
    );
    const list = attrs(n1, { verb: 'list', resource: 'pods' });
    assert.equal(
      forbiddenStatusError(list, (await chain.authorize(list)).reason).message,
      'pods is forbidden: User "system:node:n1" cannot list resource "pods" in API group "" at the cluster scope: can only list/watch pods with spec.nodeName field selector',
    );
    assert.equal((await chain.authorize(attrs(n1, { verb: 'get', path: '/healthz' }))).decision, 'Allow');
  });
});
