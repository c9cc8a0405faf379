/** The legacy Endpoints controller's subsets and writes (pkg/controller/endpoint endpoints_controller_test.go, pkg/api/v1/endpoints util_test.go). */
import { strict as assert } from 'node:assert';
import { planEndpoints } from '../../../../src/engine/controllers/endpoints/plan';
import { buildSubsets, truncateSubsets } from '../../../../src/engine/controllers/endpoints/subsets';
import type { EndpointSubset, Endpoints } from '../../../../src/engine/controllers/endpoints/types';
import type { Pod, Service } from '../../../../src/engine/controllers/util/types/endpoint';
import { newPod, newService, podIP } from '../endpointslice/fixtures';

const addr = (n: number) => ({ ip: podIP(n), nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'test', name: `pod${n}`, uid: `uid-${n}` } });

describe('controllers/endpoints', () => {
  it('ready pods go to addresses, unready ones to notReadyAddresses, sorted by IP; terminating pods are left out', () => {
    const svc = newService('foo', 'test');
    const pods = [newPod(3, 'test', true), newPod(1, 'test', true), newPod(2, 'test', false), newPod(4, 'test', true, true)];
    assert.deepEqual(buildSubsets(svc, pods), [{ addresses: [addr(1), addr(3)], notReadyAddresses: [addr(2)], ports: [{ name: 'foo', port: 80, protocol: 'TCP' }] }]);
  });

  it('publishNotReadyAddresses: every pod, terminating ones too, is a ready address', () => {
    const svc = newService('foo', 'test');
    svc.spec!.publishNotReadyAddresses = true;
    assert.deepEqual(buildSubsets(svc, [newPod(2, 'test', false), newPod(1, 'test', true, true)])[0]!.addresses, [addr(1), addr(2)]);
  });

  it('RepackSubsets: ports served by the same addresses share a subset; a named port resolving differently splits', () => {
    const svc: Service = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'foo', namespace: 'test' },
      spec: { clusterIP: '10.96.0.9', selector: { foo: 'bar' }, ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }, { name: 'metrics', port: 9090, targetPort: 9090, protocol: 'TCP' }] },
    };
    const withPort = (n: number, port: number): Pod => {
      const p = newPod(n, 'test', true);
      p.spec!.containers = [{ name: 'c', ports: [{ name: 'http', containerPort: port, protocol: 'TCP' }] }];
      return p;
    };
    const subsets: EndpointSubset[] = buildSubsets(svc, [withPort(1, 8080), withPort(2, 8080), withPort(3, 8081)]);
    assert.deepEqual(subsets, [
      { addresses: [addr(1), addr(2)], ports: [{ name: 'http', port: 8080, protocol: 'TCP' }] },
      { addresses: [addr(1), addr(2), addr(3)], ports: [{ name: 'metrics', port: 9090, protocol: 'TCP' }] },
      { addresses: [addr(3)], ports: [{ name: 'http', port: 8081, protocol: 'TCP' }] },
    ]);
  });

  it('a headless Service without ports gets addresses without ports; hostname for pods naming it as subdomain', () => {
    const svc = newService('db', 'test');
    svc.spec = { clusterIP: 'None', selector: { foo: 'bar' }, ports: [] };
    const pod = newPod(1, 'test', true);
    pod.spec!.hostname = 'db-0';
    pod.spec!.subdomain = 'db';
    assert.deepEqual(buildSubsets(svc, [pod]), [{ addresses: [{ ip: podIP(1), hostname: 'db-0', nodeName: 'node-1', targetRef: addr(1).targetRef }] }]);
  });

  it('creates with the Service labels, the headless label and the trigger time; skips equal state; updates on change', () => {
    const svc = newService('foo', 'test');
    svc.metadata.labels = { app: 'web' };
    const first = planEndpoints(svc, [newPod(1, 'test', true)], undefined, '2025-01-01T00:00:00Z');
    assert.equal(first.verb, 'create');
    const created = (first as { endpoints: Endpoints }).endpoints;
    assert.deepEqual(created.metadata, { name: 'foo', namespace: 'test', labels: { app: 'web' }, annotations: { 'endpoints.kubernetes.io/last-change-trigger-time': '2025-01-01T00:00:00Z' } });
    assert.deepEqual(planEndpoints(svc, [newPod(1, 'test', true)], created, undefined), { verb: 'none' });
    const changed = planEndpoints(svc, [newPod(1, 'test', false)], created, undefined);
    assert.equal(changed.verb, 'update');
    assert.equal((changed as { endpoints: Endpoints }).endpoints.metadata.annotations, undefined);
    const headless = { ...svc, spec: { ...svc.spec, clusterIP: 'None' } };
    assert.deepEqual((planEndpoints(headless, [], undefined, undefined) as { endpoints: Endpoints }).endpoints.metadata.labels, { app: 'web', 'service.kubernetes.io/headless': '' });
  });

  it('truncateEndpoints: over 1000 addresses keeps ready ones first, proportionally', () => {
    const many = (n: number, from: number) => Array.from({ length: n }, (_, i) => addr(from + i));
    const subsets: EndpointSubset[] = [
      { addresses: many(600, 0), notReadyAddresses: many(100, 600) },
      { addresses: many(300, 700), notReadyAddresses: many(300, 1000) },
    ];
    assert.ok(truncateSubsets(subsets));
    assert.deepEqual(subsets.map((s) => [s.addresses?.length, s.notReadyAddresses?.length]), [[600, 25], [300, 75]]);
    assert.ok(!truncateSubsets([{ addresses: many(10, 0) }]));
  });
});
