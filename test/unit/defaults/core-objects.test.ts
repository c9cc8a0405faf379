import { strict as assert } from 'node:assert';
import { defaulted } from './defaulted';

// Tables after pkg/apis/core/v1/defaults_test.go (release-1.35).
const obj = (kind: string, rest: object) => ({ apiVersion: 'v1', kind, metadata: { name: 'x', namespace: 'default' }, ...rest });
const specOf = (kind: string, spec: object) => defaulted(obj(kind, { spec })).spec as Record<string, unknown>;

describe('defaults: Service', () => {
  it('TestSetDefaultService: ClusterIP, no affinity, Cluster internal traffic', () => {
    assert.deepEqual(specOf('Service', { ports: [{ port: 80 }] }), {
      ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }],
      sessionAffinity: 'None',
      type: 'ClusterIP',
      internalTrafficPolicy: 'Cluster',
    });
  });

  it('TestSetDefaultServiceTargetPort: an unset, zero or empty target port becomes the port', () => {
    const spec = specOf('Service', {
      ports: [{ port: 1 }, { port: 2, targetPort: 0 }, { port: 3, targetPort: '' }, { port: 4, targetPort: 'http' }, { port: 5, targetPort: 9376 }],
    });
    assert.deepEqual((spec.ports as { targetPort: unknown }[]).map((p) => p.targetPort), [1, 2, 3, 'http', 9376]);
  });

  it('TestSetDefaultServicePort: an explicit protocol stays', () => {
    const spec = specOf('Service', { ports: [{ port: 53, protocol: 'UDP' }, { port: 9, protocol: 'SCTP', targetPort: 9 }] });
    assert.deepEqual(spec.ports, [
      { port: 53, protocol: 'UDP', targetPort: 53 },
      { port: 9, protocol: 'SCTP', targetPort: 9 },
    ]);
  });

  it('TestSetDefaultServiceSessionAffinityConfig: ClientIP gets a 3h timeout, None drops the config', () => {
    assert.deepEqual(specOf('Service', { sessionAffinity: 'ClientIP' }).sessionAffinityConfig, { clientIP: { timeoutSeconds: 10800 } });
    assert.deepEqual(
      specOf('Service', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: {} } }).sessionAffinityConfig,
      { clientIP: { timeoutSeconds: 10800 } },
    );
    assert.deepEqual(
      specOf('Service', { sessionAffinity: 'ClientIP', sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } }).sessionAffinityConfig,
      { clientIP: { timeoutSeconds: 60 } },
    );
    assert.equal('sessionAffinityConfig' in specOf('Service', { sessionAffinityConfig: { clientIP: { timeoutSeconds: 60 } } }), false);
  });

  it('TestSetDefaultServiceExternalTraffic: only externally reachable services get Cluster', () => {
    assert.equal(specOf('Service', {}).externalTrafficPolicy, undefined);
    assert.equal(specOf('Service', { type: 'NodePort' }).externalTrafficPolicy, 'Cluster');
    assert.equal(specOf('Service', { type: 'LoadBalancer' }).externalTrafficPolicy, 'Cluster');
    assert.equal(specOf('Service', { type: 'LoadBalancer', externalTrafficPolicy: 'Local' }).externalTrafficPolicy, 'Local');
    assert.equal(specOf('Service', { externalIPs: ['1.2.3.4'] }).externalTrafficPolicy, 'Cluster');
  });

  it('TestSetDefaultServiceInternalTrafficPolicy: not for ExternalName', () => {
    assert.equal(specOf('Service', { type: 'ExternalName', externalName: 'a.b' }).internalTrafficPolicy, undefined);
    assert.equal(specOf('Service', { type: 'NodePort' }).internalTrafficPolicy, 'Cluster');
    assert.equal(specOf('Service', { internalTrafficPolicy: 'Local' }).internalTrafficPolicy, 'Local');
  });

  it('LoadBalancer: allocateLoadBalancerNodePorts and ingress ipMode VIP', () => {
    const out = defaulted(
      obj('Service', {
        spec: { type: 'LoadBalancer' },
        status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }, { hostname: 'lb.example' }, { ip: '10.0.0.2', ipMode: 'Proxy' }] } },
      }),
    );
    assert.equal((out.spec as Record<string, unknown>).allocateLoadBalancerNodePorts, true);
    assert.deepEqual(out.status, {
      loadBalancer: { ingress: [{ ip: '10.0.0.1', ipMode: 'VIP' }, { hostname: 'lb.example' }, { ip: '10.0.0.2', ipMode: 'Proxy' }] },
    });
  });
});

describe('defaults: ReplicationController', () => {
  it('TestSetDefaultReplicationController: selector and labels from the template, one replica', () => {
    const out = defaulted(obj('ReplicationController', { spec: { template: { metadata: { labels: { foo: 'bar' } } } } }));
    assert.deepEqual(out.metadata.labels, { foo: 'bar' });
    const spec = out.spec as Record<string, unknown>;
    assert.deepEqual(spec.selector, { foo: 'bar' });
    assert.equal(spec.replicas, 1);
  });

  it('keeps its own labels and selector', () => {
    const out = defaulted({
      apiVersion: 'v1',
      kind: 'ReplicationController',
      metadata: { name: 'x', labels: { own: 'label' } },
      spec: { replicas: 0, selector: { some: 'other' }, template: { metadata: { labels: { foo: 'bar' } } } },
    });
    assert.deepEqual(out.metadata.labels, { own: 'label' });
    const spec = out.spec as Record<string, unknown>;
    assert.deepEqual(spec.selector, { some: 'other' });
    assert.equal(spec.replicas, 0);
  });

  it('without a template only replicas is defaulted', () => {
    assert.deepEqual(specOf('ReplicationController', {}), { replicas: 1 });
  });
});

describe('defaults: other core kinds', () => {
  it('TestSetDefaultEndpointsProtocol', () => {
    const out = defaulted(obj('Endpoints', { subsets: [{ ports: [{ port: 1 }, { port: 2, protocol: 'UDP' }] }] }));
    assert.deepEqual(out.subsets, [{ ports: [{ port: 1, protocol: 'TCP' }, { port: 2, protocol: 'UDP' }] }]);
  });

  it('TestSetDefaultSecret', () => {
    assert.equal(defaulted(obj('Secret', {})).type, 'Opaque');
    assert.equal(defaulted(obj('Secret', { type: 'kubernetes.io/tls' })).type, 'kubernetes.io/tls');
  });

  it('TestSetDefaultNamespace and TestSetDefaultNamespaceLabels', () => {
    const out = defaulted({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { env: 'dev' } } });
    assert.deepEqual(out.metadata.labels, { env: 'dev', 'kubernetes.io/metadata.name': 'team-a' });
    assert.deepEqual(out.status, { phase: 'Active' });
    const overridden = defaulted({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b', labels: { 'kubernetes.io/metadata.name': 'a' } } });
    assert.deepEqual(overridden.metadata.labels, { 'kubernetes.io/metadata.name': 'b' });
    const generated = defaulted({ apiVersion: 'v1', kind: 'Namespace', metadata: { generateName: 'ns-' } });
    assert.equal(generated.metadata.labels, undefined);
  });

  it('TestSetDefaultNodeStatusAllocatable', () => {
    const out = defaulted({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, status: { capacity: { cpu: '4', memory: '1024Mi' } } });
    assert.deepEqual(out.status, { capacity: { cpu: '4', memory: '1Gi' }, allocatable: { cpu: '4', memory: '1Gi' } });
    const given = defaulted({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n' }, status: { capacity: { cpu: '4' }, allocatable: { cpu: '3' } } });
    assert.deepEqual(given.status, { capacity: { cpu: '4' }, allocatable: { cpu: '3' } });
  });

  it('TestSetDefaultLimitRangeItem: default from max, defaultRequest from default then min', () => {
    const out = defaulted(
      obj('LimitRange', {
        spec: {
          limits: [
            { type: 'Container', max: { cpu: '100m' }, min: { cpu: '1m', memory: '1Mi' } },
            { type: 'Container', default: { cpu: '50m' }, max: { cpu: '100m' } },
            { type: 'Pod', max: { cpu: '1' } },
          ],
        },
      }),
    );
    assert.deepEqual((out.spec as { limits: unknown }).limits, [
      { type: 'Container', max: { cpu: '100m' }, min: { cpu: '1m', memory: '1Mi' }, default: { cpu: '100m' }, defaultRequest: { cpu: '100m', memory: '1Mi' } },
      { type: 'Container', default: { cpu: '50m' }, max: { cpu: '100m' }, defaultRequest: { cpu: '50m' } },
      { type: 'Pod', max: { cpu: '1' } },
    ]);
  });

  it('ResourceQuota quantities are rounded', () => {
    const out = defaulted(obj('ResourceQuota', { spec: { hard: { cpu: '0.5', pods: '10' } } }));
    assert.deepEqual(out.spec, { hard: { cpu: '500m', pods: '10' } });
  });

  it('TestSetDefaultPersistentVolume', () => {
    const out = defaulted({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' }, spec: { capacity: { storage: '1Gi' }, hostPath: { path: '/d' } } });
    assert.deepEqual(out.spec, {
      capacity: { storage: '1Gi' },
      hostPath: { path: '/d', type: '' },
      persistentVolumeReclaimPolicy: 'Retain',
      volumeMode: 'Filesystem',
    });
    assert.deepEqual(out.status, { phase: 'Pending' });
  });

  it('persistent volume sources get their +default values', () => {
    const spec = (source: object) => defaulted({ apiVersion: 'v1', kind: 'PersistentVolume', metadata: { name: 'pv' }, spec: source }).spec as Record<string, unknown>;
    assert.deepEqual(spec({ rbd: { image: 'i' } }).rbd, { image: 'i', pool: 'rbd', user: 'admin', keyring: '/etc/ceph/keyring' });
    assert.deepEqual(spec({ iscsi: { iqn: 'q' } }).iscsi, { iqn: 'q', iscsiInterface: 'default' });
    assert.deepEqual(spec({ scaleIO: { system: 's' } }).scaleIO, { system: 's', storageMode: 'ThinProvisioned', fsType: 'xfs' });
    assert.deepEqual(spec({ azureDisk: { diskName: 'd', readOnly: true } }).azureDisk, {
      diskName: 'd', readOnly: true, cachingMode: 'ReadWrite', fsType: 'ext4', kind: 'Shared',
    });
  });

  it('TestSetDefaultPersistentVolumeClaim', () => {
    const out = defaulted(obj('PersistentVolumeClaim', { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }));
    assert.deepEqual(out.spec, { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' });
    assert.deepEqual(out.status, { phase: 'Pending' });
    const block = defaulted(obj('PersistentVolumeClaim', { spec: { volumeMode: 'Block' } }));
    assert.equal((block.spec as Record<string, unknown>).volumeMode, 'Block');
  });

  it('kinds without defaults pass through unchanged', () => {
    for (const kind of ['ConfigMap', 'ServiceAccount', 'Event']) {
      const input = obj(kind, kind === 'ConfigMap' ? { data: { a: 'b' } } : {});
      assert.deepEqual(defaulted(input), input, kind);
    }
  });
});
